"""The Java provider: symbols, and imports resolved through package declarations."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.code.test_python import imports, run, write

pytest.importorskip("tree_sitter_java")

from cairn.code.java import read_java


def test_symbols_with_lines_and_token_hashes() -> None:
    facts = read_java(b"""package com.acme.shop;

import java.util.List;
import com.acme.util.*;
import static com.acme.util.Money.round;

/** A cart. */
@Entity
public class Cart extends Base implements Priced {
    private final List<Item> items = List.of();

    public Cart() { super(); }

    public Cart(int size) {
        this();
    }

    public long total() {
        return Money.sum(items);
    }

    static class Line { void add() {} }
    interface Visitor { void visit(Line line); }
    enum State { OPEN, PAID; boolean done() { return this == PAID; } }
    record Pair(int a, int b) { Pair { } }
}
""")
    assert facts.status == "parsed" and facts.reason == "" and facts.package == "com.acme.shop"
    got = [(s.name, s.kind, s.start_line, s.end_line) for s in facts.symbols]
    assert got == [
        ("Cart", "class", 8, 26), ("Cart.<init>", "method", 12, 12), ("Cart.<init>#2", "method", 14, 16),
        ("Cart.total", "method", 18, 20), ("Cart.Line", "class", 22, 22), ("Cart.Line.add", "method", 22, 22),
        ("Cart.Visitor", "type", 23, 23), ("Cart.Visitor.visit", "method", 23, 23),
        ("Cart.State", "class", 24, 24), ("Cart.State.done", "method", 24, 24),
        ("Cart.Pair", "class", 25, 25), ("Cart.Pair.<init>", "method", 25, 25)]
    assert [(i.module, i.name, i.level) for i in facts.imports] == [
        ("java.util.List", None, 0), ("com.acme.util", "*", 0), ("com.acme.util.Money.round", None, 1)]
    assert {"Base", "Priced", "Item", "Money", "Entity", "List"} <= {u.target for u in facts.uses}
    a = read_java(b"class A { int f() {\n // why\n return 1; } }").symbols[1].body_hash
    assert a == read_java(b"class A { int f() { return 1; } }").symbols[1].body_hash
    assert a != read_java(b"class A { int f() { return 2; } }").symbols[1].body_hash
    # a type's body hash leaves out its methods (they have their own)
    assert (read_java(b"class A { int x; int f() { return 1; } }").symbols[0].body_hash
            == read_java(b"class A { int x; int f() { return 2; } }").symbols[0].body_hash)


def test_bad_input_is_recorded() -> None:
    assert read_java(b"\x00\x01\x02").status == "skipped"
    broken = read_java(b"class Ok {}\nclass Broken { void f( }\n")
    assert broken.status == "parsed" and "syntax errors" in broken.reason


def test_imports_resolve_through_package_declarations(tmp_path: Path) -> None:
    main, test = "app/src/main/java/com/acme", "app/src/test/java/com/acme"
    write(tmp_path, {
        f"{main}/shop/Cart.java": "package com.acme.shop;\n\nimport java.util.List;\nimport com.acme.util.*;\n"
                                  "import static com.acme.util.Money.round;\n\n"
                                  "public class Cart { List<Item> items; long t() { return Money.sum(); } }\n",
        f"{main}/shop/Item.java": "package com.acme.shop;\n\npublic record Item(String name) {}\n",
        f"{main}/shop/Unused.java": "package com.acme.shop;\n\nclass Unused {}\n",
        f"{main}/util/Money.java": "package com.acme.util;\n\npublic final class Money {\n"
                                  "  public static long sum() { return 0; }\n  public static class Cents {}\n}\n",
        f"{main}/util/Dates.java": "package com.acme.util;\n\npublic class Dates {}\n",
        f"{main}/api/Api.java": "package com.acme.api;\n\nimport com.acme.shop.Cart;\nimport com.acme.util.Money.Cents;\n"
                                "import org.slf4j.Logger;\n\npublic interface Api { Cart cart(); }\n",
        f"{test}/shop/CartTest.java": "package com.acme.shop;\n\nimport org.junit.jupiter.api.Test;\n\n"
                                      "class CartTest { @Test void t() { new Cart(); } }\n",
        f"{main}/Broken.java": "package com.acme;\nclass Broken { void f( }\n",
    })
    result = run(tmp_path)
    assert imports(result) == {
        (f"{main}/shop/Cart.java", f"{main}/util/Money.java"),  # a.b.* (Money is named) and static
        (f"{main}/shop/Cart.java", f"{main}/shop/Item.java"),  # same package, no import
        (f"{main}/api/Api.java", f"{main}/shop/Cart.java"),
        (f"{main}/api/Api.java", f"{main}/util/Money.java"),  # a nested type's file
        (f"{test}/shop/CartTest.java", f"{main}/shop/Cart.java"),  # another source root, same package
    }
    java = next(c for c in result.coverage if c.provider == "java")
    assert java.files_parsed == 8 and java.relation_kinds == ("import",)
    # java.util.List, org.slf4j.Logger, org.junit.jupiter.api.Test
    assert java.confidence["unresolved_imports"].startswith("3 imports")
    broken = next(f for f in result.files if f.path == f"{main}/Broken.java")
    assert broken.status == "parsed" and "syntax errors" in broken.reason
