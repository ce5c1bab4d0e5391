"""Shared settings of the Python tests (tests/python/, run by ctest as python.test_*).

ctest sets PYTHONPATH to the build's python/ directory, DMLREF_CLI to the dmlref tool and
DMLREF_SPEC_EXAMPLES to the program that prints the spec's worked examples; by hand:

    PYTHONPATH=build/dev/python DMLREF_CLI=build/dev/tools/dmlref \
        DMLREF_SPEC_EXAMPLES=build/dev/python/dmlref_spec_examples_json /usr/bin/python3 -m pytest tests/python
"""

import os
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

# CI's budget: a bounded number of examples per property, no per-example deadline (a loaded
# machine must not fail a correct run). DMLREF_HYPOTHESIS_PROFILE=long runs more. No example
# database: the tests run from the source tree, which a run must not write into.
settings.register_profile("ci", max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          database=None)
settings.register_profile("long", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          database=None)
settings.load_profile(os.environ.get("DMLREF_HYPOTHESIS_PROFILE", "ci"))

DATA_TYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
              np.uint8, np.uint16, np.uint32, np.uint64]
INDEX_TYPES = [np.int32, np.int64, np.uint32, np.uint64]


def random_values(rng, shape, dtype):
    """Random bit patterns of dtype (NaN payloads, -0.0 and subnormals included)."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    return rng.integers(0, 256, size=count * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)


def same_bits(a, b):
    """True when a and b have one shape and dtype and equal bytes element by element."""
    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    unsigned = np.dtype("u%d" % a.dtype.itemsize)
    return np.array_equal(np.ascontiguousarray(a).view(unsigned), np.ascontiguousarray(b).view(unsigned))


def assert_same_bits(actual, expected):
    assert np.asarray(actual).shape == np.asarray(expected).shape, (np.asarray(actual).shape, np.asarray(expected).shape)
    assert np.asarray(actual).dtype == np.asarray(expected).dtype
    assert same_bits(actual, expected), "\nactual:\n%r\nexpected:\n%r" % (actual, expected)


def sentinel_like(shape, dtype):
    """An output pre-filled with a recognisable byte pattern."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    return np.full(count * dtype.itemsize, 0xA5, dtype=np.uint8).view(dtype).reshape(shape)


@pytest.fixture
def rng(request):
    """A generator seeded from the test's id, so that a failure replays."""
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))
