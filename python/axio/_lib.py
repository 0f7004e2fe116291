"""The C library under the package: libaxio.so (src/capi/axio_capi.h), loaded with ctypes.

Where it is found, first match wins: the file named by the environment variable
AXIO_LIB (the tests point it at a build directory), then libaxio.so next to this
file (put there by `pip install ./python` or by `make python`).
"""

import ctypes
import os
from ctypes import (
    POINTER,
    Structure,
    c_char,
    c_char_p,
    c_float,
    c_int,
    c_int8,
    c_int32,
    c_int64,
    c_long,
    c_size_t,
    c_uint8,
    c_uint64,
    c_void_p,
)

ABI_VERSION = 2

OK = 0
E_CONFIG = -1
E_RANGE = -2
E_ILLEGAL = -3
E_OVER = -4
E_SEAT = -5
E_MEMORY = -6
E_NO_RECORD = -7
E_VIEW = -8

GAME_OVER = 4  # axio_game_play: the game is over

REWARD_RANKING = 0
REWARD_TRACKS = 1
AUTORESET_NEXT_STEP = 0
AUTORESET_SAME_STEP = 1


class Section(Structure):
    _fields_ = [
        ("name", c_char * 16),
        ("offset", c_int32),
        ("size", c_int32),
        ("ndim", c_int32),
        ("shape", c_int32 * 3),
        ("low", c_int32),
        ("high", c_int32),
    ]


class Spec(Structure):
    _fields_ = [
        ("variant", c_int32),
        ("players", c_int32),
        ("mode", c_int32),
        ("ncolors", c_int32),
        ("rack_size", c_int32),
        ("sides", c_int32),
        ("num_actions", c_int32),
        ("obs_size", c_int32),
        ("window", c_int32),
        ("ndirs", c_int32),
        ("swap_action", c_int32),
        ("slots", c_int32),
        ("x0", c_int32),
        ("y0", c_int32),
        ("nsections", c_int32),
        ("sections", Section * 16),
    ]


class Action(Structure):
    _fields_ = [
        ("kind", c_int32),
        ("slot", c_int32),
        ("dir", c_int32),
        ("a0", c_int32),
        ("b0", c_int32),
        ("a1", c_int32),
        ("b1", c_int32),
        ("rotation", c_int32),
        ("wild", c_int32),
    ]


class Status(Structure):
    _fields_ = [
        ("phase", c_int32),
        ("to_move", c_int32),
        ("in_bonus", c_int32),
        ("ply", c_int32),
        ("end_reason", c_int32),
        ("nlegal", c_int32),
        ("tracks", (c_int32 * 6) * 4),
        ("place", c_int32 * 4),
        ("reward", c_float * 4),
        ("solo_result", c_int64),
        ("seed", c_uint64),
    ]


class BatchOut(Structure):
    _fields_ = [
        ("obs", c_void_p),
        ("mask", c_void_p),
        ("seat", c_void_p),
        ("reward", c_void_p),
        ("seat_rewards", c_void_p),
        ("terminated", c_void_p),
        ("final_obs", c_void_p),
        ("final_seat", c_void_p),
    ]


def _path():
    explicit = os.environ.get("AXIO_LIB")
    if explicit:
        return explicit
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libaxio.so")
    if os.path.exists(here):
        return here
    raise ImportError(
        "axio: the C library libaxio.so is missing: install the package with "
        "`pip install --no-build-isolation ./python`, or run `make python` to use it "
        "from the source tree (docs/python.md)"
    )


def _load():
    path = _path()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(f"axio: cannot load {path}: {e}") from None
    if lib.axio_abi_version() != ABI_VERSION:
        raise ImportError(
            f"axio: {path} speaks ABI {lib.axio_abi_version()}, this package {ABI_VERSION}: "
            "rebuild it (make python, or pip install again)"
        )
    p = c_void_p
    sigs = {
        "axio_spec_get": (c_int, [c_char_p, c_int, c_char_p, POINTER(Spec)]),
        "axio_game_new": (c_int, [POINTER(Spec), c_uint64, POINTER(c_void_p)]),
        "axio_game_free": (None, [p]),
        "axio_game_clone": (c_void_p, [p]),
        "axio_game_view": (c_int, [p, c_int, POINTER(c_void_p)]),
        "axio_game_redeal": (c_int, [p, c_int, c_uint64, POINTER(c_void_p)]),
        "axio_game_status": (None, [p, POINTER(Status)]),
        "axio_game_spec": (None, [p, POINTER(Spec)]),
        "axio_game_to_move": (c_int, [p]),
        "axio_game_observe": (c_int, [p, c_int, p, p]),
        "axio_game_step": (c_int, [p, c_int32]),
        "axio_game_play": (c_int, [p, c_int32]),
        "axio_game_legal_actions": (c_int, [p, p, c_int]),
        "axio_game_explain": (c_int, [p, c_int32, c_char_p, c_size_t]),
        "axio_action_describe": (c_int, [POINTER(Spec), c_int32, POINTER(Action)]),
        "axio_game_record": (c_void_p, [p, POINTER(c_char_p), POINTER(c_int)]),
        "axio_game_render": (c_void_p, [p]),
        "axio_game_tiles": (c_int, [p, p, c_int]),
        "axio_game_save": (c_void_p, [p, POINTER(c_int)]),
        "axio_game_load": (c_int, [c_char_p, POINTER(c_void_p), c_char_p, c_size_t]),
        "axio_game_from_record": (c_int, [c_char_p, POINTER(c_void_p), c_char_p, c_size_t]),
        "axio_free": (None, [p]),
        "axio_batch_new": (c_int, [POINTER(Spec), c_int, c_int, c_int, POINTER(c_void_p)]),
        "axio_batch_clone": (c_void_p, [p]),
        "axio_batch_free": (None, [p]),
        "axio_batch_info": (None, [p, POINTER(Spec), POINTER(c_int), POINTER(c_int), POINTER(c_int)]),
        "axio_batch_bind": (c_int, [p, POINTER(BatchOut)]),
        "axio_batch_reset": (c_int, [p, c_uint64, c_int, p]),
        "axio_batch_step": (c_int, [p, p, POINTER(c_int32)]),
        "axio_batch_random_actions": (None, [p, p]),
        "axio_batch_game": (c_void_p, [p, c_int]),
        "axio_batch_save": (c_void_p, [p, POINTER(c_int)]),
        "axio_batch_load": (c_int, [c_char_p, POINTER(c_void_p), c_char_p, c_size_t]),
        "axio_player_new": (c_int, [c_char_p, c_uint64, c_int, c_long, POINTER(c_void_p)]),
        "axio_player_free": (None, [p]),
        "axio_player_decide": (c_int, [p, p, POINTER(c_int32)]),
        "axio_level": (c_int, [c_char_p, c_int, POINTER(c_char_p), POINTER(c_int)]),
        "axio_level_names": (c_int, [c_char_p, c_size_t]),
        "axio_player_exists": (c_int, [c_char_p]),
    }
    for name, (restype, argtypes) in sigs.items():
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = argtypes
    return lib


lib = _load()


def take_text(ptr):
    """A malloc'd C string as str, freed."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.axio_free(ptr)


__all__ = [
    "lib",
    "Spec",
    "Section",
    "Status",
    "Action",
    "BatchOut",
    "take_text",
    "c_int8",
    "c_uint8",
    "c_int32",
    "c_uint64",
    "c_char_p",
    "c_void_p",
]
