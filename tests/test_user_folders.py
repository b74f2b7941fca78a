"""Per-user folders come from platformdirs (issue 14): the editor's recovery folder and the
play screen's autosave folder, each overridable by an environment variable."""

from __future__ import annotations

from pathlib import Path

import platformdirs

from hexwar.editor.recovery import recovery_dir
from hexwar.paths import user_state_dir
from hexwar.ui.autosave import autosave_dir, default_autosave_path


def test_state_folders_are_platformdirs_user_state_folders():
    base = Path(platformdirs.user_state_path("hexwar", appauthor=False))
    assert user_state_dir("recovery") == base / "recovery"
    assert recovery_dir({}) == base / "recovery"
    assert autosave_dir({}) == base / "autosave"


def test_environment_overrides_win(tmp_path):
    assert recovery_dir({"HEXWAR_RECOVERY_DIR": str(tmp_path / "r")}) == tmp_path / "r"
    assert autosave_dir({"HEXWAR_AUTOSAVE_DIR": str(tmp_path / "a")}) == tmp_path / "a"


def test_autosave_file_names_keep_only_safe_characters(tmp_path):
    env = {"HEXWAR_AUTOSAVE_DIR": str(tmp_path)}
    assert (
        default_autosave_path("Prokhorovka 12 July 1943", env) == tmp_path / "prokhorovka_12_july_1943.json"
    )
    assert default_autosave_path("../../etc/passwd", env) == tmp_path / "etc_passwd.json"
    assert default_autosave_path("", env) == tmp_path / "game.json"


def test_a_windowed_game_autosaves_to_a_new_file_named_by_scenario_and_start_time(tmp_path):
    import datetime

    import pytest

    from hexwar.errors import HexwarError
    from hexwar.ui.autosave import new_game_autosave

    env = {"HEXWAR_AUTOSAVE_DIR": str(tmp_path / "auto" / "saves")}
    p = new_game_autosave("kharkov", datetime.datetime(1943, 8, 3, 5, 0, 9), env)
    assert p == tmp_path / "auto" / "saves" / "kharkov-19430803-050009.json" and p.parent.is_dir()
    (tmp_path / "file").write_text("x")
    with pytest.raises(HexwarError, match="autosave folder"):
        new_game_autosave(
            "k", datetime.datetime(1943, 1, 1), {"HEXWAR_AUTOSAVE_DIR": str(tmp_path / "file" / "d")}
        )
