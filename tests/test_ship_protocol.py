"""The ship's serial protocol: encode, decode and the checksum, as the contract fixes them."""

import ast
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from companion.ship import protocol
from companion.ship.protocol import ProtocolError, checksum, decode, encode

PROTOCOL_FILE = Path(protocol.__file__)


def signed(body: str) -> str:
    return f"${body}*{checksum(body):02X}"


def why(line: str) -> str:
    with pytest.raises(ProtocolError) as caught:
        decode(line)
    return caught.value.why


def test_the_contract_example():
    assert checksum("BALL,118,53021,rain") == 0x36
    assert encode("BALL", 118, 53021, ["rain"]) == "$BALL,118,53021,rain*36"
    assert decode("$BALL,118,53021,rain*36") == ("BALL", 118, 53021, ["rain"])


def test_every_type_decodes_with_its_fields():
    assert decode(signed("HELLO,0,5,1,CS-4F2A,0.3.1")) == ("HELLO", 0, 5, ["1", "CS-4F2A", "0.3.1"])
    assert decode(signed("TILT,7,100,-15,203,42")) == ("TILT", 7, 100, [-15, 203, 42])
    assert decode(signed("BEAT,8,1000,3912")) == ("BEAT", 8, 1000, [3912])
    assert decode(signed("ERR,9,1100,imu,no answer")) == ("ERR", 9, 1100, ["imu", "no answer"])
    assert decode(signed("ERR,9,1100,,")) == ("ERR", 9, 1100, ["", ""])
    assert decode(signed("HELLO,0,0,,,")) == ("HELLO", 0, 0, ["", "", ""])


def test_one_trailing_cr_and_lower_case_hex():
    assert decode("$BALL,118,53021,rain*36\r")[0] == "BALL"
    assert why("$BALL,118,53021,rain*36\r\r") == "format"
    body = "BALL,1,2,hail"
    assert decode(f"${body}*{checksum(body):02x}")[3] == ["hail"]


def test_integers():
    assert decode(signed("TILT,00012,0,-0,007,0"))[1:] == (12, 0, [0, 7, 0])
    for bad in (
        "TILT,1,2,+5,0,0",
        "TILT,1,2, 5,0,0",
        "TILT,1,2,-,0,0",
        "TILT,1,2,0,0,-1",
        "TILT,-1,2,0,0,0",
        "TILT,1,-2,0,0,0",
        "TILT,65536,2,0,0,0",
        "TILT,1,2,1.5,0,0",
        "BEAT,1,2,-3",
        "TILT,1,2,,0,0",
        "TILT,,2,0,0,0",
    ):
        assert why(signed(bad)) == "format", bad
    assert decode(signed("TILT,65535,99999999999,0,0,0"))[1:3] == (65535, 99999999999)


def test_types_and_kinds_are_case_sensitive_and_counted():
    for bad in (
        "ball,1,2,rain",
        "BALL,1,2,Rain",
        "BALL,1,2,snow",
        "BALL,1,2",
        "BALL,1,2,rain,x",
        "TILT,1,2,0,0",
        "HELLO,1,2,1,x",
        "NOISE,1,2",
        "BEAT",
        "",
    ):
        assert why(signed(bad)) == "format", bad


def test_the_order_of_the_checks():
    assert why("$BALL,1,2,r\x00in*00") == "format"  # a bad character comes first
    assert why("$" + "A" * 90 + "\x7f") == "format"
    assert why("$" + "A" * 90) == "too_long"  # then the length
    assert why("X" * 81) == "too_long"
    assert why("BALL,1,2,rain*00") == "format"  # then the shape
    assert why("$*00") == "format"
    assert why("$BALL,1,2,rain*0") == "format"
    assert why("$BALL,1,2,rain*0G") == "format"
    assert why("$BA$LL*00") == "format"
    assert why("$BA*LL*00") == "format"
    assert why("$BALL,1,2,rain*00") == "checksum"  # then the checksum
    assert why(signed("BALL,1,2,rainy")) == "format"  # then the fields


def test_eighty_characters_is_the_limit():
    text = "x" * (80 - len(signed("ERR,1,2,a,")))
    assert len(signed("ERR,1,2,a," + text)) == 80
    assert decode(signed("ERR,1,2,a," + text) + "\r")[3] == ["a", text]
    assert why(signed("ERR,1,2,a," + text + "x")) == "too_long"


@given(
    st.sampled_from(["TILT", "BALL", "BEAT", "ERR", "HELLO"]), st.integers(0, 10**6), st.integers(0, 2**32), st.data()
)
def test_encode_then_decode_gives_the_message_back(kind, seq, t, data):
    text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters="$*,"), max_size=8)
    fields = {
        "TILT": [
            data.draw(st.integers(-1800, 1800)),
            data.draw(st.integers(-1800, 1800)),
            data.draw(st.integers(0, 9999)),
        ],
        "BALL": [data.draw(st.sampled_from(["rain", "hail"]))],
        "BEAT": [data.draw(st.integers(0, 5000))],
        "ERR": [data.draw(text), data.draw(text)],
        "HELLO": [data.draw(text), data.draw(text), data.draw(text)],
    }[kind]
    line = encode(kind, seq, t, fields)
    if len(line) <= 80:
        assert decode(line) == (kind, seq % 65536, t, fields)
        assert line[-2:] == line[-2:].upper()  # the firmware writes upper-case hex


@given(st.text(max_size=100))
def test_any_text_decodes_or_is_refused_with_a_reason(line):
    try:
        decode(line)
    except ProtocolError as exc:
        assert exc.why in ("format", "too_long", "checksum")


@given(st.binary(min_size=1, max_size=40).map(lambda b: b.decode("latin-1")))
def test_a_changed_byte_never_passes_as_another_message(noise):
    good = "$BALL,118,53021,rain*36"
    for i in range(1, len(good) - 3):
        changed = good[:i] + noise[0] + good[i + 1 :]
        if changed != good:
            with pytest.raises(ProtocolError):
                decode(changed)


def test_micropython_can_run_it():
    """No imports, annotations, dataclasses, f-strings or walrus: the Pico runs this very file."""
    tree = ast.parse(PROTOCOL_FILE.read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, (ast.Import, ast.ImportFrom, ast.AnnAssign, ast.JoinedStr, ast.NamedExpr)), (
            ast.dump(node)[:80]
        )
        if isinstance(node, (ast.FunctionDef, ast.arg)):
            assert getattr(node, "returns", None) is None and getattr(node, "annotation", None) is None
