"""A matrix's rows as int8 with one scale per row: a quarter of the float32 rows' bytes, so a dense search reads a
quarter of the memory to find its candidates (the product of 100K int8 rows and a query takes about 3 ms here,
against 12 ms for float32 on one BLAS thread), then scores those candidates exactly from the float32 rows.

Each row is scaled so its largest component is 127 and rounded; its step (the largest component / 127) turns the
int8 product back into a cosine. The product of two int8 vectors is a sum of integers, exact in float32 up to
2**24 (384 dimensions of 127 * 127 is 6.2M), so the approximate scores are the same on every machine."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numkong
import numpy as np

from trident.store.mapped.file_rows import write_array

QUANTIZE_BLOCK = 8192  # rows quantized at a time, so a large matrix needs no float32 temporary of its size
# Below this many rows the float32 product is as fast as the int8 scan and the candidates' second read (measured
# with 384 dimensions on one BLAS thread, 50 results: 0.45 against 0.87 ms at 10K rows, 0.95 against 0.86 at 16K,
# 1.66 against 0.95 at 20K, 10.3 against 3.6 at 100K): a matrix that fits the CPU's caches is read fast whole. A
# smaller matrix gets no int8 rows, written or in memory.
SCAN_MIN_ROWS = 14_000


@dataclass(frozen=True)
class Int8Rows:
    """`codes[i] * steps[i]` approximates row i (to half a step per component)."""

    codes: np.ndarray  # int8 (rows, dim); memory-mapped when read from a file
    steps: np.ndarray  # float32 (rows,)

    def __len__(self) -> int:
        return len(self.steps)

    def scores(self, query: np.ndarray) -> np.ndarray:
        """Each row's approximate dot product with `query` (float32, one per row)."""
        step, codes = _quantized(np.asarray(query, dtype=np.float32)[None, :])
        products = np.asarray(numkong.cdist(codes, self.codes, metric="dot", out_dtype="float32"), dtype=np.float32)
        scores: np.ndarray = products[0] * (self.steps * step[0])
        return scores


def worth_scanning(rows: int) -> bool:
    """Whether a matrix of this many rows is searched faster through int8 rows than whole."""
    return rows >= SCAN_MIN_ROWS


def scan_rows(matrix: np.ndarray) -> Int8Rows | None:
    """The int8 rows of `matrix` when a search would scan them (`worth_scanning`); None otherwise."""
    return quantize(matrix) if worth_scanning(len(matrix)) else None


def quantize(matrix: np.ndarray) -> Int8Rows:
    """The int8 rows of a float32 `matrix` (rows, dim), a block of rows at a time."""
    rows, dim = matrix.shape if matrix.ndim == 2 else (0, 0)
    codes = np.empty((rows, dim), dtype=np.int8)
    steps = np.empty(rows, dtype=np.float32)
    for start in range(0, rows, QUANTIZE_BLOCK):
        end = min(start + QUANTIZE_BLOCK, rows)
        steps[start:end], codes[start:end] = _quantized(np.asarray(matrix[start:end], dtype=np.float32))
    return Int8Rows(codes, steps)


def _quantized(block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the step and the int8 codes (a zero row has step 0 and codes 0)."""
    if not block.shape[1]:
        return np.zeros(len(block), np.float32), np.zeros(block.shape, np.int8)
    steps = (np.maximum(block.max(axis=1), -block.min(axis=1)) / np.float32(127)).astype(np.float32)
    scales = np.divide(np.float32(1), steps, out=np.zeros_like(steps), where=steps > 0)
    scaled = block * scales[:, None]
    np.rint(scaled, out=scaled)  # within [-127, 127]: each row's largest component is 127 steps
    return steps, scaled.astype(np.int8)


def write_int8(folder: Path, prefix: str, rows: Int8Rows | None) -> None:
    """A matrix's int8 rows as `<prefix>int8.npy` and `<prefix>int8_steps.npy` (nothing for a matrix too small to
    scan: None)."""
    if rows is None:
        return
    write_array(folder / f"{prefix}int8.npy", rows.codes)
    write_array(folder / f"{prefix}int8_steps.npy", rows.steps)


def read_int8(folder: Path, prefix: str, shape: tuple[int, ...]) -> Int8Rows | None:
    """The int8 rows of a matrix of `shape` written by `write_int8`, memory-mapped; None when there are none (or
    they do not fit the matrix, or it is empty: nothing to scan)."""
    if not shape[0]:
        return None
    try:
        codes = np.load(folder / f"{prefix}int8.npy", mmap_mode="r", allow_pickle=False)
        steps = np.load(folder / f"{prefix}int8_steps.npy", allow_pickle=False)
    except FileNotFoundError:
        return None
    if codes.shape != shape or codes.dtype != np.int8 or steps.shape != shape[:1]:
        return None
    return Int8Rows(codes, steps)
