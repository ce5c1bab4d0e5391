"""torch tensors in and out through DLPack (zero-copy), float16 and int64 included."""

import numpy as np
import pytest

import dmlref
from conftest import assert_same_bits

torch = pytest.importorskip("torch")


def test_float16_int64_in_numpy_out():
    t = torch.arange(24, dtype=torch.float16).reshape(4, 6) / 8
    idx = torch.tensor([3, -1, 0], dtype=torch.int64)
    result = dmlref.gather(t, idx, 0)
    assert isinstance(result, np.ndarray) and result.dtype == np.float16
    assert_same_bits(result, t.numpy()[[3, 3, 0]])


def test_torch_out_is_written_in_place():
    t = torch.arange(24, dtype=torch.float16).reshape(4, 6)
    idx = torch.tensor([[5, 0]], dtype=torch.int64)
    base = torch.full((2, 4), -1.0, dtype=torch.float16)
    out = base.T  # {4, 2}, strides (1, 4)
    assert dmlref.gather(t.T.contiguous().T, idx, 1, 1, out=out) is out
    expected = torch.index_select(t, 1, idx[0])  # {4, 2}
    assert torch.equal(out, expected)
    assert torch.equal(base, expected.T)


def test_torch_strided_out_and_inputs():
    t = torch.arange(40, dtype=torch.int64).reshape(5, 8)[:, ::2]  # {5, 4}, strides (8, 2)
    idx = torch.tensor([[0, 3], [1, 1], [2, 0], [3, 2], [0, 0]], dtype=torch.int32)
    base = torch.zeros(2, 5, dtype=torch.int64)
    out = base.T  # {5, 2}, strides (1, 5)
    assert dmlref.gather_elements(t, idx, 1, out=out) is out
    assert torch.equal(out, torch.gather(t, 1, idx.long()))
    assert torch.equal(base, torch.gather(t, 1, idx.long()).T)


def test_torch_in_place_scatter():
    x = torch.zeros(3, 4, dtype=torch.float16)
    idx = torch.tensor([[1], [3], [0]], dtype=torch.int64)
    upd = torch.tensor([[1.5], [2.5], [-0.0]], dtype=torch.float16)
    assert dmlref.scatter(x, idx, upd, 1, out=x) is x
    expected = torch.zeros(3, 4, dtype=torch.float16).scatter_(1, idx, upd)
    assert torch.equal(x.view(torch.int16), expected.view(torch.int16))  # -0.0 kept bit for bit
    y = torch.zeros(5, dtype=torch.int64)
    assert dmlref.onnx.scatter_nd(y, torch.tensor([[4], [0]]), torch.tensor([7, 9]), out=y) is y
    assert y.tolist() == [9, 0, 0, 0, 7]


def test_broadcast_torch_input_is_not_copied():
    # 2^40 elements through stride 0: a copy would need 4 TiB.
    huge = torch.full((1,), 7.0).expand(2**40)
    result = dmlref.gather(huge, torch.tensor([2**40 - 1, 0]), 0)
    assert result.tolist() == [7.0, 7.0]


def test_onnx_scalar_and_empty_torch():
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    assert dmlref.onnx.gather(t, torch.tensor(2), axis=1).tolist() == [2.0, 5.0]
    empty = torch.zeros(0, 3)
    assert dmlref.onnx.gather(empty, torch.zeros(0, dtype=torch.int64)).shape == (0, 3)
    out = torch.zeros(0, 3)
    assert dmlref.onnx.gather(t, torch.zeros(0, dtype=torch.int64), out=out) is out


@pytest.mark.parametrize("dtype", ["bool", "complex64", "bfloat16"])
def test_torch_type_errors(dtype):
    bad = torch.zeros(3, dtype=getattr(torch, dtype))
    with pytest.raises(TypeError, match="input has dtype torch.%s" % dtype):
        dmlref.gather(bad, torch.tensor([0]))
    with pytest.raises(TypeError, match="out has dtype torch.%s" % dtype):
        dmlref.gather(torch.zeros(3), torch.tensor([0]), out=bad[:1])


def test_torch_errors_leave_out_unchanged():
    t = torch.arange(4, dtype=torch.float32)
    out = torch.full((2,), 5.0)
    with pytest.raises(dmlref.IndexOutOfRangeError) as info:
        dmlref.gather(t, torch.tensor([1, 4]), out=out)
    assert info.value.position == (1,)
    assert out.tolist() == [5.0, 5.0]
    with pytest.raises(dmlref.Error) as info:
        dmlref.gather(t, torch.tensor([1, 2]), out=torch.zeros(2, dtype=torch.float64))
    assert info.value.code == "data_type_mismatch"
