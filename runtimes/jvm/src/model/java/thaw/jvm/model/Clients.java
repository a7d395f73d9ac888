// The Clients model of thaw's fixtures (crates/codecs/src/models/clients.rs) as plain Java classes
// with public fields named as the JSON's: a 64-bit id, a java.util.UUID, an exact
// java.math.BigDecimal balance (a plain JSON number), an enum, phones as longs, a
// java.time.LocalDate and java.time.OffsetDateTime values (RFC 3339 with offset and
// nanoseconds). Built by hand from the neutral tree for `ser` (the JDK's own parsers, no JSON
// library), and walked by hand for the `de` checksum (thaw.jvm.Digest).

package thaw.jvm.model;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import thaw.jvm.Digest;
import thaw.jvm.Tree;

public final class Clients {
    public List<Client> clients;

    public enum EyeColor { BROWN, BLUE, GREEN }

    public static final class Client {
        public long id;
        public int index;
        public UUID guid;
        public boolean isActive;
        public BigDecimal balance;
        public String picture;
        public int age;
        public EyeColor eyeColor;
        public String name;
        public String gender;
        public String company;
        public List<String> emails;
        public List<Long> phones;
        public String address;
        public String about;
        public LocalDate registered;
        public double latitude;
        public double longitude;
        public List<String> tags;
        public List<Partner> partners;
    }

    public static final class Partner {
        public long id;
        public String name;
        public OffsetDateTime since;
    }

    /** The model's classes, the root first (the harness initialises them in `model`). */
    public static Class<?>[] classes() {
        return new Class<?>[] {Clients.class, Client.class, Partner.class, EyeColor.class};
    }

    public static Clients fromTree(Tree root) {
        Clients c = new Clients();
        List<Tree> all = root.get("clients").items();
        c.clients = new ArrayList<>(all.size());
        for (Tree m : all) {
            Client x = new Client();
            x.id = m.get("id").i64();
            x.index = m.get("index").i32();
            x.guid = UUID.fromString(m.get("guid").str());
            x.isActive = m.get("isActive").bool();
            // The tree holds the decimal as the shortest text of its double: that text exactly.
            x.balance = new BigDecimal(m.get("balance").numberText());
            x.picture = m.get("picture").str();
            x.age = m.get("age").i32();
            x.eyeColor = EyeColor.valueOf(m.get("eyeColor").str());
            x.name = m.get("name").str();
            x.gender = m.get("gender").str();
            x.company = m.get("company").str();
            List<Tree> emails = m.get("emails").items();
            x.emails = new ArrayList<>(emails.size());
            for (Tree t : emails) x.emails.add(t.str());
            List<Tree> phones = m.get("phones").items();
            x.phones = new ArrayList<>(phones.size());
            for (Tree t : phones) x.phones.add(t.i64());
            x.address = m.get("address").str();
            x.about = m.get("about").str();
            x.registered = LocalDate.parse(m.get("registered").str());
            x.latitude = m.get("latitude").f64();
            x.longitude = m.get("longitude").f64();
            List<Tree> tags = m.get("tags").items();
            x.tags = new ArrayList<>(tags.size());
            for (Tree t : tags) x.tags.add(t.str());
            List<Tree> partners = m.get("partners").items();
            x.partners = new ArrayList<>(partners.size());
            for (Tree p : partners) {
                Partner pa = new Partner();
                pa.id = p.get("id").i64();
                pa.name = p.get("name").str();
                pa.since = OffsetDateTime.parse(p.get("since").str());
                x.partners.add(pa);
            }
            c.clients.add(x);
        }
        return c;
    }

    /** The structural walk (Digest's grammar), in the JSON's field order. */
    public static long digest(Clients c) {
        Digest d = new Digest();
        d.object(1);
        d.array(c.clients.size());
        for (Client x : c.clients) {
            d.object(20);
            d.i64(x.id).i64(x.index);
            uuid(d, x.guid);
            d.bool(x.isActive);
            decimal(d, x.balance);
            d.str(x.picture).i64(x.age);
            d.tag('e').str(x.eyeColor == null ? null : x.eyeColor.name());
            d.str(x.name).str(x.gender).str(x.company);
            d.array(x.emails.size());
            for (String e : x.emails) d.str(e);
            d.array(x.phones.size());
            for (Long p : x.phones) {
                if (p == null) d.nul();
                else d.i64(p);
            }
            d.str(x.address).str(x.about);
            date(d, x.registered);
            d.f64(x.latitude).f64(x.longitude);
            d.array(x.tags.size());
            for (String t : x.tags) d.str(t);
            d.array(x.partners.size());
            for (Partner p : x.partners) {
                d.object(3).i64(p.id).str(p.name);
                dateTime(d, p.since);
            }
        }
        return d.value();
    }

    static void uuid(Digest d, UUID u) {
        if (u == null) d.nul();
        else d.tag('u').raw64(u.getMostSignificantBits()).raw64(u.getLeastSignificantBits());
    }

    static void decimal(Digest d, BigDecimal v) {
        if (v == null) d.nul();
        else d.tag('d').raw32(v.scale()).str(v.unscaledValue().toString());
    }

    static void date(Digest d, LocalDate v) {
        if (v == null) d.nul();
        else d.tag('D').raw32(v.getYear()).raw32(v.getMonthValue()).raw32(v.getDayOfMonth());
    }

    static void dateTime(Digest d, OffsetDateTime v) {
        if (v == null) {
            d.nul();
            return;
        }
        d.tag('T').raw32(v.getYear()).raw32(v.getMonthValue()).raw32(v.getDayOfMonth())
            .raw32(v.getHour()).raw32(v.getMinute()).raw32(v.getSecond()).raw32(v.getNano())
            .raw32(v.getOffset().getTotalSeconds());
    }
}
