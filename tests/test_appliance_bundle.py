"""`make bundle`: the project and its wheels for a Pi without network; what pip is asked for."""

from __future__ import annotations

import tomllib
from pathlib import Path

from companion.appliance import bundle

ROOT = Path(__file__).parent.parent


def test_lgpio_is_fetched_where_pypi_has_a_wheel_and_left_to_the_system_on_python_3_13():
    bookworm = bundle.target_requirements(ROOT, "manylinux2014_aarch64", "3.11")
    trixie = bundle.target_requirements(ROOT, "manylinux2014_aarch64", "3.13")
    pc = bundle.target_requirements(ROOT, "manylinux2014_x86_64", "3.11")
    assert "lgpio>=0.2" in bookworm and not any(r.startswith("lgpio") for r in trixie + pc)
    assert all(";" not in r for r in bookworm + trixie)  # no markers: pip would judge them by this machine
    assert any(r.startswith("pygame-ce") for r in trixie)


def test_the_project_asks_for_lgpio_only_where_pypi_has_wheels_for_it():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    lgpio = next(d for d in deps if d.startswith("lgpio"))
    assert "python_version < '3.13'" in lgpio and "aarch64" in lgpio


def test_aarch64_also_takes_the_manylinux_2_34_tag_of_lgpios_wheels():
    assert bundle.platform_words("manylinux2014_aarch64") == [
        "--platform",
        "manylinux2014_aarch64",
        "--platform",
        "manylinux_2_34_aarch64",
    ]
    assert bundle.platform_words("manylinux2014_x86_64") == ["--platform", "manylinux2014_x86_64"]
    assert bundle.platform_words("linux_armv7l") == ["--platform", "linux_armv7l", "--platform", "manylinux2014_armv7l"]


def test_32bit_arm_takes_lgpio_from_pypi_on_3_11_and_pygame_ce_from_the_wheel_built_here(tmp_path):
    """pip is asked once per platform; for armv7l it also looks in the folder of the built wheel."""
    assert "lgpio>=0.2" in bundle.target_requirements(ROOT, "linux_armv7l", "3.11")
    assert not any(r.startswith("lgpio") for r in bundle.target_requirements(ROOT, "linux_armv7l", "3.13"))
    words = bundle.download_words(ROOT, "linux_armv7l", "3.13", tmp_path, built_here=lambda python: tmp_path / python)
    assert words[words.index("--find-links") + 1] == str(tmp_path / "3.13")
    assert "--only-binary=:all:" in words and any(w.startswith("pygame-ce") for w in words)
    aarch64 = bundle.download_words(ROOT, "manylinux2014_aarch64", "3.13", tmp_path, built_here=None)
    assert "--find-links" not in aarch64  # PyPI has every aarch64 wheel: nothing is built here


def test_a_copy_without_git_leaves_out_what_was_built(tmp_path):
    source = tmp_path / "source"
    for name in (
        "companion/a.py",
        "build/lib/x.py",
        "wheels/cp311/x.whl",
        "cloud_companion.egg-info/PKG-INFO",
        ".venv/bin/python",
        "companion/__pycache__/a.pyc",
    ):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text("")
    copy = bundle.copy_source(source, tmp_path / "copy")
    assert [p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file()] == ["companion/a.py"]


def test_the_armv7l_wheel_is_built_for_every_python_the_bundle_carries():
    """One armhf root per Raspberry Pi OS release, each with the Python the bundle has wheels for."""
    from companion.appliance import wheelhouse

    assert sorted(wheelhouse.PYTHONS.values()) == sorted(bundle.DEFAULT_PYTHONS)
    pygame = next(
        d
        for d in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
        if d.startswith("pygame-ce")
    )
    assert wheelhouse.pygame_requirement() == pygame  # the same pygame-ce as every other platform gets


def test_a_kept_armv7l_wheel_is_used_only_when_this_recipe_built_it(tmp_path):
    """A wheel built before without the recipe's stamp (with sse2neon's faulting blits) is built again."""
    from companion.appliance import wheelhouse

    name = "pygame_ce-2.5.8-cp311-cp311-linux_armv7l.whl"
    (tmp_path / name).write_bytes(b"built by the earlier recipe")
    assert wheelhouse.kept_wheel(tmp_path, "cp311") is None
    assert not (tmp_path / name).exists()  # never carried into a bundle by mistake
    (tmp_path / name).write_bytes(b"built by this one")
    (tmp_path / "cp311.recipe").write_text(wheelhouse.RECIPE)
    assert wheelhouse.kept_wheel(tmp_path, "cp311") == tmp_path / name
    assert wheelhouse.kept_wheel(tmp_path, "cp313") is None  # another Python's is its own
    (tmp_path / "cp311.recipe").write_text("meson stripped=true\n")
    assert wheelhouse.kept_wheel(tmp_path, "cp311") is None
    assert "-UPG_ENABLE_ARM_NEON" in wheelhouse.RECIPE
