"""Memory traffic of attention on a GPU (FlashAttention, arXiv 2205.14135), exactly: the elements read from and written
to HBM by standard attention (Algorithm 0), by FlashAttention's tiled loop (Algorithm 1: keys outside, so Q and O are
read again on every pass) and by FlashAttention-2's (arXiv 2307.08691, Algorithm 1: queries outside, each Q block read
once and O written once), counted by formula and by running the loops; FLOPs, arithmetic intensity and a roofline of
published GPUs (a model of the traffic, not a measurement).

Shapes: N tokens, d per head, blocks of B_c keys and B_r queries; rows are queries. Row vectors throughout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_int, frozen
from attention_core.attention import softmax


@dataclass(frozen=True)
class Traffic:
    """Elements read from and written to HBM by one head's attention (forward), and its FLOPs (the two matrix products:
    4 N^2 d). ``bytes`` at a given size of element."""

    reads: int
    writes: int
    flops: int

    @property
    def elements(self) -> int:
        """Elements moved: reads + writes."""
        return self.reads + self.writes

    def bytes(self, bytes_per_element: int = 2) -> int:
        """Bytes moved, ``bytes_per_element`` each (2 in 16-bit numbers)."""
        return self.elements * bytes_per_element

    def intensity(self, bytes_per_element: int = 2) -> float:
        """Arithmetic intensity: FLOPs per byte moved."""
        return self.flops / self.bytes(bytes_per_element)


def attention_flops(n: int, d: int) -> int:
    """FLOPs of one head's forward attention, the two matrix products only: Q K^T (2 N^2 d) and P V (2 N^2 d)."""
    return 4 * n * n * d


def standard_traffic(n: int, d: int) -> Traffic:
    """Standard attention (FlashAttention's Algorithm 0), each matrix read once where it is used: read Q, K (2Nd), write S
    (N^2); read S, write P (N^2 each); read P, V (N^2 + Nd), write O (Nd). Reads 3Nd + 2N^2, writes 2N^2 + Nd: 4Nd + 4N^2."""
    n, d = check_int("N", n, 1, 10**7), check_int("d", d, 1, 4096)
    return Traffic(reads=3 * n * d + 2 * n * n, writes=2 * n * n + n * d, flops=attention_flops(n, d))


def flash_blocks(sram: int, d: int) -> tuple[int, int]:
    """FlashAttention's block sizes for an SRAM of ``sram`` elements (Algorithm 1, line 1): B_c = ceil(M / 4d) keys,
    B_r = min(ceil(M / 4d), d) queries."""
    sram, d = check_int("M", sram, 1, 10**9), check_int("d", d, 1, 4096)
    block_c = math.ceil(sram / (4 * d))
    return block_c, min(block_c, d)


def flash_sram_need(d: int, block_c: int, block_r: int) -> int:
    """Elements held on chip at once in the inner step of Algorithm 1 (of FlashAttention and of FlashAttention-2 alike):
    K_j, V_j (2 B_c d), Q_i, O_i (2 B_r d), S_ij = P_ij (B_r B_c), and l_i, m_i with their new values (4 B_r). The
    paper's rule (``flash_blocks``) sizes the blocks so that K_j, V_j, Q_i and O_i alone fill M: S_ij and the statistics
    are left out, so both blocks on the rule overflow M unless B_c > 2d + 4 or so (M above about 8 d^2)."""
    return 2 * block_c * d + 2 * block_r * d + block_r * block_c + 4 * block_r


def key_blocks(n: int, block_c: int) -> int:
    """T_c = ceil(N / B_c): the blocks of keys FlashAttention's outer loop runs over, each a pass over all the queries."""
    return math.ceil(check_int("N", n, 0, 10**7) / check_int("B_c", block_c, 1, 10**7))


def flash_traffic(n: int, d: int, block_c: int, block_r: int) -> Traffic:
    """FlashAttention's Algorithm 1, counted from its lines: O, l, m initialised in HBM (writes Nd + 2N); for each of the
    T_c = ceil(N / B_c) blocks of keys: K_j, V_j read once (2Nd over all blocks), then every block of queries reads Q_i, O_i,
    l_i, m_i (2Nd + 2N a pass) and writes O_i, l_i, m_i (Nd + 2N a pass). Reads 2Nd + T_c (2Nd + 2N), writes
    Nd + 2N + T_c (Nd + 2N): Theta(N^2 d^2 / M) with B_c = M / 4d. B_r changes what is held on chip, not the traffic."""
    n, d = check_int("N", n, 1, 10**7), check_int("d", d, 1, 4096)
    block_c, block_r = check_int("B_c", block_c, 1, 10**7), check_int("B_r", block_r, 1, 10**7)
    passes = key_blocks(n, block_c)  # T_c
    return Traffic(reads=2 * n * d + passes * (2 * n * d + 2 * n), writes=n * d + 2 * n + passes * (n * d + 2 * n),
                   flops=attention_flops(n, d))


def query_blocks(n: int, block_r: int) -> int:
    """T_r = ceil(N / B_r): the blocks of queries FlashAttention-2's outer loop runs over, each a pass over all the keys."""
    return math.ceil(check_int("N", n, 0, 10**7) / check_int("B_r", block_r, 1, 10**7))


def flash2_traffic(n: int, d: int, block_c: int, block_r: int) -> Traffic:
    """FlashAttention-2's forward (arXiv 2307.08691, Algorithm 1), counted from its lines: for each of the
    T_r = ceil(N / B_r) blocks of queries: Q_i read once (Nd over all blocks), then every block of keys reads K_j, V_j
    (2Nd a pass); O_i and the logsumexp L_i written once (Nd + N). Reads Nd + 2 T_r Nd, writes Nd + N: about
    2 N^2 d / B_r + 2Nd. B_c changes what is held on chip, not the traffic."""
    n, d = check_int("N", n, 1, 10**7), check_int("d", d, 1, 4096)
    check_int("B_c", block_c, 1, 10**7)
    passes = query_blocks(n, block_r)  # T_r
    return Traffic(reads=n * d + passes * 2 * n * d, writes=n * d + n, flops=attention_flops(n, d))


def flash_against_standard(standard: Traffic, flash: Traffic) -> tuple[float, str]:
    """How FlashAttention's traffic compares with standard attention's: (factor, "fewer" | "more" | "same"), the factor
    always at least 1 (standard / flash elements when FlashAttention moves fewer, flash / standard when it moves more).
    With the paper's blocks (B_c = M / 4d) FlashAttention moves about 3 d^2 / M times as much: it saves only when d^2 is
    well below M (d = 128 with a small SRAM, d = 256 with any of today's, move more)."""
    if flash.elements == standard.elements:
        return 1.0, "same"
    if flash.elements < standard.elements:
        return standard.elements / flash.elements, "fewer"
    return flash.elements / standard.elements, "more"


class _Memory:
    """The simulation's HBM: named arrays; every load and store counts the elements it moves."""

    def __init__(self, **arrays: NDArray) -> None:
        self.arrays = {name: np.array(a, dtype=float) for name, a in arrays.items()}
        self.reads = self.writes = 0

    def load(self, name: str, rows: slice) -> NDArray:
        part = self.arrays[name][rows].copy()
        self.reads += part.size
        return part

    def store(self, name: str, rows: slice, value: NDArray) -> None:
        self.arrays[name][rows] = value
        self.writes += np.size(value)


@dataclass(frozen=True)
class TiledRun:
    """Attention run as a GPU kernel would, with HBM's loads and stores counted: output (N, d); reads and writes (elements)."""

    output: NDArray
    reads: int
    writes: int

    def __post_init__(self) -> None:
        frozen(self)


def simulate_standard(q: NDArray, k: NDArray, v: NDArray, block: int = 16) -> TiledRun:
    """Algorithm 0 run in blocks of ``block`` rows, counting HBM traffic: Q and K read (by blocks), S = Q K^T / sqrt(d)
    written; S read and P = softmax(S) written, row block by row block; P and V read, O = P V written."""
    memory = _Memory(Q=q, K=k, V=v, S=np.zeros((len(q), len(k))), P=np.zeros((len(q), len(k))), O=np.zeros(np.shape(v)))
    n, d = np.shape(q)
    blocks = [slice(start, min(start + block, n)) for start in range(0, n, block)]
    key = memory.load("K", slice(None))  # (N, d): all of K, once
    for rows in blocks:
        memory.store("S", rows, memory.load("Q", rows) @ key.T / math.sqrt(d))  # (B, N)
    for rows in blocks:
        memory.store("P", rows, softmax(memory.load("S", rows)))  # (B, N)
    value = memory.load("V", slice(None))  # (N, d): all of V, once
    for rows in blocks:
        memory.store("O", rows, memory.load("P", rows) @ value)  # (B, d)
    return TiledRun(memory.arrays["O"], memory.reads, memory.writes)


def simulate_flash(q: NDArray, k: NDArray, v: NDArray, block_c: int, block_r: int) -> TiledRun:
    """FlashAttention's Algorithm 1 run line by line, counting HBM traffic (scores scaled by 1 / sqrt(d), as the rest of
    the core): O = 0, l = 0, m = -inf stored; for each block of keys j: load K_j, V_j; for each block of queries i: load
    Q_i, O_i, l_i, m_i; S = Q_i K_j^T; m~ = rowmax(S), P~ = exp(S - m~), l~ = rowsum(P~); m' = max(m_i, m~),
    l' = e^(m_i - m') l_i + e^(m~ - m') l~; O_i <- (l_i e^(m_i - m') O_i + e^(m~ - m') P~ V_j) / l'; store O_i, l', m'."""
    n, d = np.shape(q)
    memory = _Memory(Q=q, K=k, V=v, O=np.empty((n, d)), l=np.empty(n), m=np.empty(n))
    everything = slice(None)
    memory.store("O", everything, np.zeros((n, d)))
    memory.store("l", everything, np.zeros(n))
    memory.store("m", everything, np.full(n, -np.inf))
    for start_c in range(0, n, block_c):
        cols = slice(start_c, min(start_c + block_c, n))
        k_j, v_j = memory.load("K", cols), memory.load("V", cols)  # (B_c, d) each
        for start_r in range(0, n, block_r):
            rows = slice(start_r, min(start_r + block_r, n))
            q_i, o_i, l_i, m_i = (memory.load(name, rows) for name in ("Q", "O", "l", "m"))
            s = q_i @ k_j.T / math.sqrt(d)  # (B_r, B_c), on chip only
            m_block = s.max(axis=1)
            p = np.exp(s - m_block[:, None])
            m_new = np.maximum(m_i, m_block)
            old, new = np.exp(m_i - m_new), np.exp(m_block - m_new)  # old is 0 before the first block (m_i = -inf)
            l_new = old * l_i + new * p.sum(axis=1)
            memory.store("O", rows, ((l_i * old)[:, None] * o_i + new[:, None] * (p @ v_j)) / l_new[:, None])
            memory.store("l", rows, l_new)
            memory.store("m", rows, m_new)
    return TiledRun(memory.arrays["O"], memory.reads, memory.writes)


def simulate_flash2(q: NDArray, k: NDArray, v: NDArray, block_c: int, block_r: int) -> TiledRun:
    """FlashAttention-2's Algorithm 1 run line by line, counting HBM traffic: for each block of queries i: load Q_i;
    O = 0, l = 0, m = -inf on chip; for each block of keys j: load K_j, V_j; S = Q_i K_j^T / sqrt(d); m' = max(m,
    rowmax(S)), P~ = exp(S - m'), l <- e^(m - m') l + rowsum(P~), O <- e^(m - m') O + P~ V_j; after the last block
    O_i = O / l and L_i = m + log l, both stored once."""
    n, d = np.shape(q)
    memory = _Memory(Q=q, K=k, V=v, O=np.empty((n, d)), L=np.empty(n))
    for start_r in range(0, n, block_r):
        rows = slice(start_r, min(start_r + block_r, n))
        q_i = memory.load("Q", rows)  # (B_r, d), once
        o_i, l_i, m_i = np.zeros((len(q_i), d)), np.zeros(len(q_i)), np.full(len(q_i), -np.inf)  # on chip only
        for start_c in range(0, n, block_c):
            cols = slice(start_c, min(start_c + block_c, n))
            k_j, v_j = memory.load("K", cols), memory.load("V", cols)  # (B_c, d) each, once per block of queries
            s = q_i @ k_j.T / math.sqrt(d)  # (B_r, B_c)
            m_new = np.maximum(m_i, s.max(axis=1))
            p = np.exp(s - m_new[:, None])
            old = np.exp(m_i - m_new)  # 0 before the first block (m_i = -inf)
            l_i, o_i, m_i = old * l_i + p.sum(axis=1), old[:, None] * o_i + p @ v_j, m_new
        memory.store("O", rows, o_i / l_i[:, None])
        memory.store("L", rows, m_i + np.log(l_i))
    return TiledRun(memory.arrays["O"], memory.reads, memory.writes)


@dataclass(frozen=True)
class GPU:
    """A GPU's two roofs: peak dense BF16 Tensor Core throughput (FLOP/s, without 2:4 sparsity) and HBM bandwidth
    (bytes/s), from NVIDIA's data sheets (assets/text names each)."""

    peak: float
    bandwidth: float

    @property
    def ridge(self) -> float:
        """The intensity (FLOP/byte) where the roofs meet: peak / bandwidth. Below it a kernel waits for memory."""
        return self.peak / self.bandwidth


# NVIDIA A100 Tensor Core GPU data sheet (A100 80GB SXM: BF16 Tensor Core 312 TFLOPS, 624 with sparsity; 2,039 GB/s).
# NVIDIA H100 Tensor Core GPU data sheet (H100 SXM: BF16 Tensor Core 1,979 TFLOPS with sparsity; 3.35 TB/s).
# NVIDIA H200 Tensor Core GPU data sheet (H200 SXM: BF16 Tensor Core 1,979 TFLOPS with sparsity; 4.8 TB/s).
# NVIDIA HGX B200 (8 GPUs: FP16/BF16 Tensor Core 36 PFLOPS with sparsity) and DGX B200 data sheet (64 TB/s HBM3e for 8).
GPUS = {
    "a100": GPU(peak=312e12, bandwidth=2.039e12),
    "h100": GPU(peak=1979e12 / 2, bandwidth=3.35e12),
    "h200": GPU(peak=1979e12 / 2, bandwidth=4.8e12),
    "b200": GPU(peak=36e15 / 8 / 2, bandwidth=64e12 / 8),
}


@dataclass(frozen=True)
class RooflinePoint:
    """A kernel on a GPU's roofline: intensity (FLOP/byte); attainable (FLOP/s) = min(peak, intensity x bandwidth);
    compute_time = FLOPs / peak and memory_time = bytes / bandwidth (s); time, the larger; bound "memory" or "compute"."""

    intensity: float
    attainable: float
    compute_time: float
    memory_time: float

    @property
    def time(self) -> float:
        """The roofline's time: max(compute_time, memory_time) (the two overlap at best)."""
        return max(self.compute_time, self.memory_time)

    @property
    def bound(self) -> str:
        """What limits it: "memory" below the ridge, else "compute"."""
        return "memory" if self.memory_time > self.compute_time else "compute"


def roofline(gpu: GPU, traffic: Traffic, bytes_per_element: int = 2) -> RooflinePoint:
    """Where ``traffic`` sits on ``gpu``'s roofline (a model: every byte at full bandwidth, every FLOP at peak, no caches)."""
    moved = traffic.bytes(bytes_per_element)
    intensity = traffic.flops / moved
    return RooflinePoint(intensity, min(gpu.peak, intensity * gpu.bandwidth), traffic.flops / gpu.peak, moved / gpu.bandwidth)
