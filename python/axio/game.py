"""One game of AXIO over the C engine: the configuration (`Spec`) and the game (`Game`).

A `Game` is the engine's game behind a handle: it deals from a seed, takes
actions (numbers of the fixed action space of its `Spec`), gives any seat's
observation and action mask, the engine's own list of legal actions, the
record, and copies, views and redeals for search. The environments (`env`,
`VectorEnv`, `SingleAgentEnv`) are built on it; docs/python.md describes the
encodings.

Copies never share the C game: `copy.copy`, `copy.deepcopy` and `copy()` clone
it, and `pickle` stores the game's saved state (`save()`: the seed and the
decisions, or for a view or a redeal the engine's state) and loads it again.
"""

import ctypes
import json
import operator
from collections import namedtuple

import numpy as np

from . import _lib
from ._lib import lib

VARIANTS = ("square", "rota", "hex")
MODES = ("standard", "solo", "team")
PHASES = ("place", "swap", "over")
END_REASONS = ("none", "blocked", "all-max", "tiles-out", "left")

Section = namedtuple("Section", "name offset size shape low high")


class IllegalActionError(ValueError):
    """An action that is not legal in the game's current state."""


def check_seed(seed):
    """A game seed: an integer 0 .. 2**64 - 1."""
    if isinstance(seed, bool):
        raise TypeError("axio: a seed is an integer, not a bool")
    try:
        seed = operator.index(seed)
    except TypeError:
        raise TypeError(f"axio: a seed is an integer, not {type(seed).__name__}") from None
    if not 0 <= seed < 2**64:
        raise ValueError(f"axio: a seed is 0 .. 2**64-1, not {seed}")
    return seed


def _config_error(variant, players, mode):
    if not isinstance(variant, str) or variant not in VARIANTS:
        return f"unknown variant {variant!r} (square, rota, hex)"
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        return f"players is a number 1 to 4, not {players!r}"
    if not 1 <= players <= 4:
        return f"players must be 1 to 4, not {players}"
    if mode is not None and (not isinstance(mode, str) or mode not in MODES):
        return f"unknown mode {mode!r} (standard, solo, team)"
    return (
        f"{variant} with {players} player(s) in mode {mode or 'standard'} is not a game: solo is "
        "for 1 player, team is hex with 4, standard is for 2 to 4"
    )


class Spec:
    """The fixed spaces of a variant, player count and mode.

    `num_actions` actions and observations of `obs_size` int8 values, whose
    named sections `layout` lists (name -> Section(offset, size, shape, low,
    high)); `split(observation)` cuts an observation into them.
    """

    def __init__(self, variant="square", players=2, mode=None):
        raw = _lib.Spec()
        ok = (
            isinstance(variant, str)
            and isinstance(players, (int, np.integer))
            and not isinstance(players, bool)
            and (mode is None or isinstance(mode, str))
        )
        err = (
            lib.axio_spec_get(
                variant.encode(), int(players), mode.encode() if mode else None, ctypes.byref(raw)
            )
            if ok and 1 <= players <= 4
            else _lib.E_CONFIG
        )
        if err != _lib.OK:
            raise ValueError("axio: " + _config_error(variant, players, mode))
        self.raw = raw
        self.variant = VARIANTS[raw.variant]
        self.players = raw.players
        self.mode = MODES[raw.mode]
        self.ncolors = raw.ncolors
        self.rack_size = raw.rack_size
        self.sides = raw.sides
        self.num_actions = raw.num_actions
        self.obs_size = raw.obs_size
        self.window = raw.window
        self.ndirs = raw.ndirs
        self.swap_action = raw.swap_action if raw.swap_action >= 0 else None
        self.slots = raw.slots if self.variant == "rota" else None
        self.origin = (raw.x0, raw.y0) if self.variant == "rota" else None
        self.layout = {}
        low = np.zeros(self.obs_size, np.int8)
        high = np.zeros(self.obs_size, np.int8)
        for k in range(raw.nsections):
            s = raw.sections[k]
            name = s.name.decode()
            shape = tuple(s.shape[i] for i in range(s.ndim))
            self.layout[name] = Section(name, s.offset, s.size, shape, s.low, s.high)
            low[s.offset : s.offset + s.size] = s.low
            high[s.offset : s.offset + s.size] = s.high
        self.low, self.high = low, high

    def split(self, observation):
        """The named sections of an observation (or of a batch of them), as shaped views."""
        observation = np.asarray(observation)
        lead = observation.shape[:-1]
        return {
            name: observation[..., s.offset : s.offset + s.size].reshape(lead + s.shape)
            for name, s in self.layout.items()
        }

    def describe(self, action):
        """What an action means, as a dict (docs/python.md, "Actions")."""
        a = _action_number(self, action)
        out = _lib.Action()
        lib.axio_action_describe(ctypes.byref(self.raw), a, ctypes.byref(out))
        if out.kind == 1:
            return {"kind": "keep"}
        if out.kind == 2:
            return {"kind": "swap"}
        if self.variant == "rota":
            return {
                "kind": "place",
                "slot": out.slot,
                "rotation": out.rotation,
                "wild": None if out.wild < 0 else COLORS[out.wild],
            }
        return {
            "kind": "place",
            "slot": out.slot,
            "direction": out.dir,
            "cells": [[out.a0, out.b0], [out.a1, out.b1]],
        }

    def __eq__(self, other):
        return isinstance(other, Spec) and (self.variant, self.players, self.mode) == (
            other.variant,
            other.players,
            other.mode,
        )

    def __repr__(self):
        return (
            f"Spec({self.variant!r}, {self.players}, {self.mode!r}: {self.num_actions} actions, "
            f"observations of {self.obs_size})"
        )


COLORS = ("red", "green", "blue", "orange", "purple", "yellow")


def _spec_of(handle):
    """The Spec of a C game (one just loaded)."""
    raw = _lib.Spec()
    lib.axio_game_spec(handle, ctypes.byref(raw))
    return Spec(VARIANTS[raw.variant], raw.players, MODES[raw.mode])


def _record_names(text):
    """The seat names of a record's start line, or None."""
    first = text.decode("utf-8") if isinstance(text, bytes) else text
    first = first.lstrip().split("\n", 1)[0]
    try:
        names = json.loads(first).get("names")
    except (ValueError, AttributeError):
        return None
    return list(names) if isinstance(names, list) and all(isinstance(n, str) for n in names) else None


def _action_number(spec, action):
    if isinstance(action, bool):
        raise TypeError("axio: an action is an integer, not a bool")
    try:
        a = operator.index(action)
    except TypeError:
        raise TypeError(f"axio: an action is an integer, not {type(action).__name__}") from None
    if not 0 <= a < spec.num_actions:
        raise IllegalActionError(
            f"axio: action {a} is not in the action space 0..{spec.num_actions - 1}"
        )
    return a


class Game:
    """One game: `Game("hex", players=2, seed=7)`; `step(action)`, `observe(seat)`."""

    def __init__(self, variant="square", players=2, mode=None, seed=0):
        self.spec = variant if isinstance(variant, Spec) else Spec(variant, players, mode)
        handle = ctypes.c_void_p()
        err = lib.axio_game_new(ctypes.byref(self.spec.raw), check_seed(seed), ctypes.byref(handle))
        if err != _lib.OK:
            raise MemoryError("axio: no memory for a game")
        self._h = handle.value
        self._status = _lib.Status()
        self.names = None

    @classmethod
    def _adopt(cls, spec, handle, names=None):
        if not handle:
            raise MemoryError("axio: no memory for a game")
        g = cls.__new__(cls)
        g.spec = spec
        g._h = handle
        g._status = _lib.Status()
        g.names = names
        return g

    @classmethod
    def _loaded(cls, loader, text, what):
        """A game from a C loader (axio_game_load, axio_game_from_record) of `text`."""
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        if not isinstance(text, str):
            raise TypeError(f"axio: {what} is text, not {type(text).__name__}")
        out = ctypes.c_void_p()
        why = ctypes.create_string_buffer(320)
        err = loader(text.encode("utf-8"), ctypes.byref(out), why, len(why))
        if err == _lib.E_MEMORY:
            raise MemoryError(f"axio: no memory to load {what}")
        if err != _lib.OK:
            raise ValueError(f"axio: cannot load {what}: {why.value.decode()}")
        spec = _spec_of(out.value)
        return cls._adopt(spec, out.value)

    @classmethod
    def from_record(cls, record):
        """The game a record (axio-record/1 text, complete or cut after any line) describes,
        as it stands after its last line; every line is checked by the engine's replay.

        It plays on from there, and its own record() repeats the record's decisions.
        """
        g = cls._loaded(lib.axio_game_from_record, record, "the record")
        g.names = _record_names(record)
        return g

    @classmethod
    def read_record(cls, path):
        """`from_record` of the record file at `path` (what `write_record` writes)."""
        with open(path, encoding="utf-8") as f:
            return cls.from_record(f.read())

    @classmethod
    def load(cls, state):
        """The game a `save()` text describes, exactly where it was saved."""
        g = cls._loaded(lib.axio_game_load, state, "the saved game")
        names = json.loads(state).get("names")
        if isinstance(names, list) and len(names) == g.spec.players and all(isinstance(n, str) for n in names):
            g.names = names
        return g

    def __del__(self):
        h = getattr(self, "_h", None)
        if h:
            lib.axio_game_free(h)
            self._h = None

    # --- state ---

    def status(self):
        """Everything anyone may know about the state besides the board, as a dict."""
        st = self._status
        lib.axio_game_status(self._h, ctypes.byref(st))
        p = self.spec.players
        over = st.phase == 2
        return {
            "phase": PHASES[st.phase],
            "to_move": None if over else st.to_move,
            "bonus": bool(st.in_bonus),
            "ply": st.ply,
            "legal": st.nlegal,
            "tracks": np.array([list(st.tracks[s])[: self.spec.ncolors] for s in range(p)]),
            "end": END_REASONS[st.end_reason] if over else None,
            "places": [st.place[s] for s in range(p)] if over else None,
            "rewards": [float(st.reward[s]) for s in range(p)] if over else None,
            "solo_result": st.solo_result if over and self.spec.mode == "solo" else None,
            "seed": st.seed,
        }

    @property
    def to_move(self):
        """The seat to move, None once the game is over."""
        seat = lib.axio_game_to_move(self._h)
        return None if seat < 0 else seat

    @property
    def over(self):
        return lib.axio_game_to_move(self._h) < 0

    def tracks(self):
        """Each seat's tracks (its team's in team mode): players x colours."""
        return self.status()["tracks"]

    def rewards(self):
        """Each seat's ranking reward (docs/python.md), 0 before the end."""
        st = self._status
        lib.axio_game_status(self._h, ctypes.byref(st))
        return [float(st.reward[s]) for s in range(self.spec.players)]

    # --- observing and acting ---

    def observe(self, seat):
        """`seat`'s observation: {"observation": int8 array, "action_mask": int8 array}.

        Only what the seat may know; the mask is all 0 unless the seat is to move.
        """
        spec = self.spec
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"axio: a seat is an integer, not {seat!r}")
        if not 0 <= seat < spec.players:
            raise ValueError(f"axio: no seat {seat}: seats are 0..{spec.players - 1}")
        buf = np.empty(spec.obs_size + spec.num_actions, np.int8)
        ptr = buf.__array_interface__["data"][0]
        lib.axio_game_observe(self._h, int(seat), ptr, ptr + spec.obs_size)
        return {"observation": buf[: spec.obs_size], "action_mask": buf[spec.obs_size :]}

    def step(self, action):
        """Plays an action of the seat to move; an illegal one raises IllegalActionError."""
        a = _action_number(self.spec, action)
        err = lib.axio_game_step(self._h, a)
        if err != _lib.OK:
            self._raise(err, a)

    def _raise(self, err, a):
        if err == _lib.E_VIEW:
            raise IllegalActionError("axio: a view is observed, not played on: redeal() it")
        if err == _lib.E_MEMORY:
            raise MemoryError("axio: no memory for the game's history")
        raise IllegalActionError("axio: " + self._why(a))

    def _why(self, a):
        """Why action `a` is refused, as one sentence without a prefix."""
        if not 0 <= a < self.spec.num_actions:
            return f"action {a} is not in the action space 0..{self.spec.num_actions - 1}"
        if self.over:
            return f"action {a}: the game is over"
        return f"action {a} is not legal now: {self.explain(a)}"

    def legal_actions(self):
        """The engine's own list of legal decisions (ax_legal_moves), as action numbers."""
        buf = np.empty(self.spec.num_actions + 1, np.int32)
        n = lib.axio_game_legal_actions(
            self._h, buf.__array_interface__["data"][0], self.spec.num_actions + 1
        )
        if n < 0:
            raise MemoryError("axio: no memory to list the legal actions")
        return buf[:n].copy()

    def explain(self, action):
        """Why an action is not legal now ("" when it is)."""
        buf = ctypes.create_string_buffer(256)
        lib.axio_game_explain(self._h, int(action), buf, len(buf))
        return buf.value.decode()

    def describe(self, action):
        """What an action means (for the rota frontier slot: its cell now)."""
        d = self.spec.describe(action)
        if self.spec.variant == "rota" and d["kind"] == "place":
            frontier = self.spec.split(self.observe(0)["observation"])["frontier"]
            k = d["slot"]
            d["cell"] = [int(frontier[k, 1]), int(frontier[k, 2])] if frontier[k, 0] else None
        return d

    # --- copies, saving ---

    def copy(self):
        """An independent copy: the C game cloned, with its history (its record)."""
        return Game._adopt(self.spec, lib.axio_game_clone(self._h), self.names)

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def save(self):
        """The game as text (axio-state/1), for `Game.load`: a game dealt from a seed as its
        setup, seed and decisions (it holds the seed, so every hidden tile); a view or a
        redeal as the engine's state, which holds only what that game holds."""
        err = ctypes.c_int(0)
        text = _lib.take_text(lib.axio_game_save(self._h, ctypes.byref(err)))
        if text is None:
            raise MemoryError("axio: no memory to save the game")
        if self.names is not None:  # the seats' names too (the C library ignores them)
            text = text[:-1] + ',"names":' + json.dumps(self.names) + "}"
        return text

    def __reduce__(self):
        return (Game.load, (self.save(),))

    def view(self, seat):
        """The game as `seat` sees it (-1: a spectator): hidden tiles unknown; observe only."""
        out = ctypes.c_void_p()
        err = lib.axio_game_view(self._h, int(seat), ctypes.byref(out))
        if err == _lib.E_SEAT:
            raise ValueError(f"axio: no seat {seat}")
        return Game._adopt(self.spec, out.value)

    def redeal(self, seat, seed):
        """The same game as `seat` knows it, every tile it cannot see dealt anew from `seed`."""
        out = ctypes.c_void_p()
        err = lib.axio_game_redeal(self._h, int(seat), check_seed(seed), ctypes.byref(out))
        if err == _lib.E_SEAT:
            raise ValueError(f"axio: no seat {seat}")
        if err == _lib.E_OVER:
            raise ValueError("axio: the game is over: nothing is hidden any more")
        return Game._adopt(self.spec, out.value)

    def tiles(self):
        """Every tile, hidden ones included (racks, bag, stacks; 4 values each, -1 empty).

        For tests and analysis: never part of an observation.
        """
        buf = np.empty((256, 4), np.int8)
        n = lib.axio_game_tiles(self._h, buf.__array_interface__["data"][0], 256)
        return buf[:n].copy()

    # --- text ---

    def record(self, names=None):
        """The game's record (docs/record.md, axio-record/1) as JSON Lines text."""
        c_names = None
        if names is None:
            names = self.names
        if names is not None:
            names = list(names)
            if len(names) != self.spec.players or not all(isinstance(n, str) for n in names):
                raise ValueError(f"axio: names: one string per seat ({self.spec.players})")
            c_names = (ctypes.c_char_p * len(names))(*[n.encode() for n in names])
        err = ctypes.c_int(0)
        text = _lib.take_text(lib.axio_game_record(self._h, c_names, ctypes.byref(err)))
        if text is None:
            if err.value == _lib.E_NO_RECORD:
                raise ValueError("axio: a view or a redeal has no record: it was not dealt from a seed")
            raise MemoryError("axio: no memory for the record")
        return text

    def write_record(self, path, names=None):
        """Writes the record to `path` (what `axio replay` reads)."""
        text = self.record(names)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def render(self):
        """The board, tracks and (at the end) ranking as a spectator sees them."""
        text = _lib.take_text(lib.axio_game_render(self._h)) or ""
        st = self.status()
        if st["phase"] == "over":
            return text
        what = {"place": "bonus move" if st["bonus"] else "place a tile", "swap": "swap or keep"}
        return text + f"to move: seat {st['to_move']} ({what[st['phase']]})\n"

    def __repr__(self):
        st = self.status()
        return f"<axio.Game {self.spec.variant} {self.spec.players}p {self.spec.mode}, ply {st['ply']}, {st['phase']}>"
