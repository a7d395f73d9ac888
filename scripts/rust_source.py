"""What the source scripts share about a Rust file (scripts/code-shape.py, scripts/module-cycles.py)."""


def blank_tests(lines):
    """The lines with every `#[cfg(test)]` item blanked, to its closing brace (or its `;` for an
    item without a body), so that the other lines keep their numbers."""
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip().startswith("#[cfg(test)]"):
            j, depth, opened = i + 1, 0, False
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                opened = opened or "{" in lines[j]
                if (opened and depth <= 0) or (not opened and lines[j].rstrip().endswith(";")):
                    break
                j += 1
            out.extend([""] * (min(j, len(lines) - 1) + 1 - i))
            i = j + 1
            continue
        out.append(lines[i])
        i += 1
    return out
