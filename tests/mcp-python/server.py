"""An MCP server built on the official Python SDK (mcp 2.x), for ptc's
interop test (mcp/tests/python_interop.rs).

Its tools cover what ptc turns into signatures and values: strings, ints,
floats and bools, optional and defaulted parameters, a string enum, arrays
of objects, nested objects (pydantic models, listed as $defs/$ref),
structured results (a model, a list wrapped as {"result": ...}), plain text,
a tool that raises (a tool error), and one that sleeps with one that
tells which sleeps were cancelled (timeouts and cancellation).

    python server.py               # stdio
    python server.py --http PORT   # Streamable HTTP on 127.0.0.1:PORT/mcp;
                                   # PORT 0 picks a free one. Prints
                                   # `listening on URL` once it accepts.
"""

import argparse
import socket
from typing import Literal

import anyio
from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

CITIES = {
    "berlin": ("Berlin", "DE", 3_850_000),
    "leeds": ("Leeds", "GB", 812_000),
    "lisbon": ("Lisbon", "PT", 545_000),
    "lyon": ("Lyon", "FR", 522_000),
}

# WARNING: INFO would log every failing call on stderr.
server = MCPServer("ptc-python-interop", version="1.0.0", log_level="WARNING")


class City(BaseModel):
    city: str
    country: str
    population: int


class Traveller(BaseModel):
    name: str
    home_city: str | None = None


class Stop(BaseModel):
    city: str
    nights: int = Field(ge=1)
    tags: list[str] = []


class Trip(BaseModel):
    traveller: str
    nights: int
    cities: list[str]
    by: str
    tags: list[str]


def find(name: str) -> City:
    found = CITIES.get(name.lower())
    if found is None:
        raise ToolError(f"no city named {name!r}")
    return City(city=found[0], country=found[1], population=found[2])


@server.tool()
def lookup(city: str) -> City:
    """A city's country and population."""
    return find(city)


@server.tool()
def search(prefix: str, max_results: int = 10) -> list[str]:
    """Cities whose name starts with prefix, at most max_results of them."""
    names = sorted(c[0] for key, c in CITIES.items() if key.startswith(prefix.lower()))
    return names[:max_results]


@server.tool()
def plan(
    traveller: Traveller,
    stops: list[Stop],
    mode: Literal["rail", "road"] = "rail",
    note: str | None = None,
) -> Trip:
    """Plans a trip: nights in total, the cities in order
    (from the traveller's home city, when given)."""
    cities = [find(s.city).city for s in stops]
    if traveller.home_city is not None:
        cities.insert(0, find(traveller.home_city).city)
    by = mode if note is None else f"{mode} ({note})"
    tags = sorted({t for s in stops for t in s.tags})
    return Trip(traveller=traveller.name, nights=sum(s.nights for s in stops), cities=cities, by=by, tags=tags)


@server.tool()
def describe(city: str, shout: bool = False, ratio: float = 1.0) -> str:
    """One line about a city, as plain text."""
    c = find(city)
    line = f"{c.city} ({c.country}) has about {round(c.population * ratio)} people"
    return line.upper() if shout else line


@server.tool()
def fail(message: str) -> str:
    """Always fails: raises ValueError(message), which the SDK reports
    without the message (an unexpected exception)."""
    raise ValueError(message)


# The `ms` of every sleep a client cancelled (`notifications/cancelled`).
CANCELLED: list[int] = []


@server.tool()
async def sleep(ms: int) -> dict[str, int]:
    """Sleeps ms milliseconds."""
    try:
        await anyio.sleep(ms / 1000)
    except anyio.get_cancelled_exc_class():
        CANCELLED.append(ms)
        raise
    return {"slept_ms": ms}


@server.tool()
def cancelled() -> list[int]:
    """The ms of each sleep the client cancelled, in order."""
    return CANCELLED


def serve_http(port: int) -> None:
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    # The socket accepts from here on (connections wait in its backlog until uvicorn runs).
    print(f"listening on http://127.0.0.1:{sock.getsockname()[1]}/mcp", flush=True)
    config = uvicorn.Config(server.streamable_http_app(), log_level="warning")
    anyio.run(lambda: uvicorn.Server(config).serve(sockets=[sock]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT")
    args = parser.parse_args()
    if args.http is None:
        server.run()
    else:
        serve_http(args.http)


if __name__ == "__main__":
    main()
