//! Phase arithmetic: the runner's `spawn` and `reaped` stamps and a child's stamps, cut into the
//! phases of docs/child-protocol.md. Pure; stamps out of order are an error that names the pair.

/// Every stamp of one sample, CLOCK_MONOTONIC nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamps {
    pub spawn: u64,
    pub main: u64,
    pub fixture: u64,
    pub init: u64,
    pub first: u64,
    pub done: u64,
    pub checked: u64,
    pub reaped: u64,
}

/// The phases of one sample, nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phases {
    /// spawn → main: clone, exec, dynamic loader, runtime start.
    pub spawn_to_main: u64,
    /// main → fixture: reading or building the input.
    pub fixture: u64,
    /// fixture → init: the library's own set-up.
    pub init: u64,
    /// init → first: the first operation.
    pub first_op: u64,
    /// first → done: the other batch − 1 operations.
    pub remaining_ops: u64,
    /// done → checked: the child's checksum.
    pub check: u64,
    /// checked → reaped: drops, exit, teardown, reaping.
    pub exit: u64,
    /// init + first_op + remaining_ops.
    pub init_plus_ops: u64,
    /// spawn → reaped.
    pub wall: u64,
}

/// Cuts a sample into phases; `Err` names the first pair of stamps that goes backwards.
pub fn phases(s: &Stamps) -> Result<Phases, String> {
    let order = [
        ("spawn", s.spawn),
        ("main", s.main),
        ("fixture", s.fixture),
        ("init", s.init),
        ("first", s.first),
        ("done", s.done),
        ("checked", s.checked),
        ("reaped", s.reaped),
    ];
    for pair in order.windows(2) {
        let ((a, ta), (b, tb)) = (pair[0], pair[1]);
        if tb < ta {
            return Err(format!(
                "stamps out of order: {b} ({tb}) is before {a} ({ta})"
            ));
        }
    }
    let init = s.init - s.fixture;
    let first_op = s.first - s.init;
    let remaining_ops = s.done - s.first;
    Ok(Phases {
        spawn_to_main: s.main - s.spawn,
        fixture: s.fixture - s.main,
        init,
        first_op,
        remaining_ops,
        check: s.checked - s.done,
        exit: s.reaped - s.checked,
        init_plus_ops: init + first_op + remaining_ops,
        wall: s.reaped - s.spawn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Stamps {
        Stamps {
            spawn: 1_000_000,
            main: 1_450_000,
            fixture: 1_470_000,
            init: 1_470_500,
            first: 1_520_500,
            done: 1_900_500,
            checked: 1_910_000,
            reaped: 2_200_000,
        }
    }

    #[test]
    fn known_numbers() {
        let p = phases(&known()).unwrap();
        assert_eq!(p.spawn_to_main, 450_000);
        assert_eq!(p.fixture, 20_000);
        assert_eq!(p.init, 500);
        assert_eq!(p.first_op, 50_000);
        assert_eq!(p.remaining_ops, 380_000);
        assert_eq!(p.check, 9_500);
        assert_eq!(p.exit, 290_000);
        assert_eq!(p.init_plus_ops, 430_500);
        assert_eq!(p.wall, 1_200_000);
        // The phases tile the whole life of the process.
        let sum = p.spawn_to_main + p.fixture + p.init_plus_ops + p.check + p.exit;
        assert_eq!(sum, p.wall);
    }

    #[test]
    fn empty_phases_are_zero_not_errors() {
        let mut s = known();
        s.init = s.fixture;
        s.done = s.first;
        let p = phases(&s).unwrap();
        assert_eq!(p.init, 0);
        assert_eq!(p.remaining_ops, 0);
        assert_eq!(p.init_plus_ops, p.first_op);
    }

    #[test]
    fn backwards_stamps_name_the_pair() {
        let mut s = known();
        s.first = s.init - 1;
        let e = phases(&s).unwrap_err();
        assert!(e.contains("first") && e.contains("init"), "{e}");
        let mut s = known();
        s.main = s.spawn - 5;
        assert!(phases(&s).unwrap_err().contains("main"));
    }
}
