"""The API's JSON parser: DRF's, with a limit on nesting. Python's json module
recurses once per level of `[` or `{`, so a 2 KB body of a thousand brackets raised
RecursionError — a 500 with a traceback logged every time. No body of ours nests more
than a few levels; anything deeper than MAX_DEPTH is refused with a 400 before any
serializer walks it. (The size limit is Django's DATA_UPLOAD_MAX_MEMORY_SIZE, which
DRF enforces while reading the body, before any parser: core/api.py answers it.)"""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32
TOO_DEEP = (
    f"JSON parse error - the body nests objects and arrays too deeply (at most {MAX_DEPTH} levels)."
)


def nesting_depth_exceeds(value, limit: int) -> bool:
    """Whether `value` holds objects or arrays more than `limit` levels deep: a walk
    level by level, with no recursion of its own."""
    level, depth = [value], 0
    while level:
        containers = [item for item in level if isinstance(item, dict | list)]
        if not containers:
            return False
        depth += 1
        if depth > limit:
            return True
        level = [
            child
            for container in containers
            for child in (container.values() if isinstance(container, dict) else container)
        ]
    return False


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            # Hundreds of levels: json gave up before we could count them.
            raise ParseError(TOO_DEEP) from None
        if nesting_depth_exceeds(data, MAX_DEPTH):
            raise ParseError(TOO_DEEP)
        return data
