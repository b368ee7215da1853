/// tile: block-level kernels in the style of Triton.
///
/// A tile kernel is a `func.func` with the unit attribute `tile.kernel`; one instance (a
/// *program*) runs per point of the launch grid and works on whole tiles: builtin
/// `tensor<...>` values of a static shape that the lowering spreads over the threads of a
/// block. Elementwise math on tiles uses upstream `arith` and `math` ops on those tensors
/// (`arith.addf`, `math.exp`, `arith.cmpi`, ...). Memory is reached through `!tile.ptr<T>`
/// kernel arguments plus tiles of i32 element offsets, with a mask and an `other` value for
/// the lanes that are off. Kernel attributes: `tile.num_warps` (threads per program / 32),
/// `tile.programs_per_sm` (optional: at least this many programs an SM, which bounds each
/// thread's registers; the lowering's own count otherwise), `tile.producer_warps` (optional,
/// 0-4: warps after the `tile.num_warps` that only load, for `hopper.producer_warp`; the
/// lowering takes 1, or 4, a warpgroup that gives its registers to the consumers).
/// The host side of a program is a `func.func` that calls fused functions (see `--fuse`);
/// `--tile` gives each fused function a `tile.launch` attribute naming its kernel, grid and
/// extra arguments.
irdl.dialect @tile {
  /// A pointer to global memory holding elements of type `elem`.
  irdl.type @ptr {
    %0 = irdl.any
    irdl.parameters(elem: %0)
  }

  /// The index of this program along grid axis `axis` (0, 1 or 2), an i32. Category: grid.
  irdl.operation @program_id {
    %i = irdl.is i32
    %a = irdl.base "#builtin.integer"
    irdl.results(result: %i)
    irdl.attributes {"axis" = %a}
  }

  /// The number of programs along grid axis `axis`, an i32. Category: grid.
  irdl.operation @num_programs {
    %i = irdl.is i32
    %a = irdl.base "#builtin.integer"
    irdl.results(result: %i)
    irdl.attributes {"axis" = %a}
  }

  /// The 1-D i32 tile `[start, start+1, ..., end-1]`; `end - start` is the tile size (a
  /// power of two). Category: tile.
  irdl.operation @range {
    %r = irdl.base "!builtin.tensor"
    %a = irdl.base "#builtin.integer"
    %b = irdl.base "#builtin.integer"
    irdl.results(result: %r)
    irdl.attributes {"start" = %a, "end" = %b}
  }

  /// A tile with every element equal to the scalar operand. Category: tile.
  irdl.operation @splat {
    %s = irdl.any
    %r = irdl.base "!builtin.tensor"
    irdl.operands(value: %s)
    irdl.results(result: %r)
  }

  /// Broadcast a tile to the result shape along its dimensions of size 1 (same rank).
  /// Category: tile.
  irdl.operation @broadcast {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(value: %t)
    irdl.results(result: %r)
  }

  /// Insert a dimension of size 1 at `axis`. Category: tile.
  irdl.operation @expand_dims {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %a = irdl.base "#builtin.integer"
    irdl.operands(value: %t)
    irdl.results(result: %r)
    irdl.attributes {"axis" = %a}
  }

  /// Masked gather: element i is `ptr[offsets[i]]` where `mask[i]`, else `other[i]`.
  /// `offsets` is an i32 tile, `mask` an i1 tile, `other` a tile of the result type.
  /// Contiguous, aligned runs of offsets become 16-byte vector loads. An optional unit
  /// `tile.early` has the lowering issue each such load before the branch that a group
  /// whose mask lanes are not all on takes (--tile sets it on a row in the aligned frame,
  /// whose mask only its last group straddles). Category: memory.
  irdl.operation @load {
    %p = irdl.base @tile::@ptr
    %o = irdl.base "!builtin.tensor"
    %m = irdl.base "!builtin.tensor"
    %t = irdl.base "!builtin.tensor"
    irdl.operands(ptr: %p, offsets: %o, mask: %m, other: %t)
    irdl.results(result: %t)
  }

  /// Masked scatter: `ptr[offsets[i]] = value[i]` where `mask[i]`. Category: memory.
  irdl.operation @store {
    %p = irdl.base @tile::@ptr
    %o = irdl.base "!builtin.tensor"
    %m = irdl.base "!builtin.tensor"
    %t = irdl.base "!builtin.tensor"
    irdl.operands(ptr: %p, offsets: %o, value: %t, mask: %m)
  }

  /// Masked atomic add: `ptr[offsets[i]] += value[i]` where `mask[i]`. An optional
  /// `tile.extent` (an integer, 1 to 2^31 - 1: the elements `ptr` addresses, known where
  /// the output's shape is static; --splitk sets it) lets the lowering add zeros (-0.0)
  /// to elements near the ones it adds, up to that end, so rows off 16-byte alignment are
  /// added as aligned 16-byte reds. Category: memory.
  irdl.operation @atomic_add {
    %p = irdl.base @tile::@ptr
    %o = irdl.base "!builtin.tensor"
    %m = irdl.base "!builtin.tensor"
    %t = irdl.base "!builtin.tensor"
    irdl.operands(ptr: %p, offsets: %o, value: %t, mask: %m)
  }

  /// Count this program's arrival at a counter shared by `count` programs, after its
  /// stores: the 32-bit word at element `index` of `ptr`'s buffer. Every store the program
  /// made before it is visible device-wide first; the result is true in the program that
  /// arrives `count`-th (the same in all its threads), which then sees every other
  /// counted program's stores, and which puts the counter back to zero for the next
  /// launch (so the counter must start at zero: the runtime zeroes temps it allocates).
  /// --splitk's reduce=last-slice: the last K slice of an output tile to finish adds the
  /// others' partial tiles. Category: memory.
  irdl.operation @arrive {
    %p = irdl.base @tile::@ptr
    %i = irdl.is i32
    %b = irdl.is i1
    %a = irdl.base "#builtin.integer"
    irdl.operands(ptr: %p, index: %i)
    irdl.results(last: %b)
    irdl.attributes {"count" = %a}
  }

  /// Reduce a tile along `axis` with `kind` ("sum", "max" or "min"); the result drops that
  /// dimension. Category: reduction.
  irdl.operation @reduce {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.any
    %a = irdl.base "#builtin.integer"
    %k = irdl.base "#builtin.string"
    irdl.operands(value: %t)
    irdl.results(result: %r)
    irdl.attributes {"axis" = %a, "kind" = %k}
  }

  /// Combine an f32 across the `size` blocks of this block's thread-block cluster (sm_90)
  /// with `kind` ("sum", "max" or "min"): each block offers the value its threads hold
  /// (all the same: a tile.reduce of the block's part of a row), and every thread of
  /// every block gets the combination, in block-rank order. The blocks exchange the values
  /// through distributed shared memory; a kernel holding one must be launched with
  /// clusters of `size` blocks along x (--tile's split rows). The value may also be a
  /// dot's f32 accumulator tile (kind "sum": split-K's slices of one output tile summed
  /// across a cluster, --splitk reduce=cluster): every block gets the elementwise sum,
  /// each block adding 1/size of the tile's rows over the cluster. Category: reduction.
  irdl.operation @cluster_reduce {
    %s = irdl.is f32
    %t = irdl.base "!builtin.tensor"
    %f = irdl.any_of(%s, %t)
    %a = irdl.base "#builtin.integer"
    %k = irdl.base "#builtin.string"
    irdl.operands(value: %f)
    irdl.results(result: %f)
    irdl.attributes {"kind" = %k, "size" = %a}
  }

  /// The transpose of a 2-D tile: `result[i][j] = value[j][i]`. It feeds `tile.dot` an
  /// operand loaded K-contiguous (a `[N, K]` weight read as `[K, N]`), which reads it in
  /// place; for any other user (a permute kernel) the lowering exchanges the tile through
  /// shared memory: stored in rows, a barrier, read in columns (both dims multiples of
  /// the 16-byte run). Category: dot.
  irdl.operation @trans {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(value: %t)
    irdl.results(result: %r)
  }

  /// Tile matrix product with accumulation: `a (MxK) @ b (KxN) + acc (MxN)`, with f16 or
  /// bf16 operands and an f32 accumulator; it runs on tensor cores. Tiles are laid out
  /// row-major over the threads, so a loaded flat tile becomes a 2-D operand through
  /// `tensor.expand_shape`, and an accumulator goes back through `tensor.collapse_shape`.
  /// `mma` is the tensor-core form the dot takes on a target with warpgroup MMA (sm_90a):
  /// `"wgmma"` (computed transposed, `C^T = B^T A^T`: N in blocks of 64 rows per
  /// warpgroup), `"wgmma-direct"` (`C = A B`: 64 rows of M per warpgroup, B read K-major) or
  /// `"sync"` (mma.sync: the tile fits neither, or an operand is a cp.async slot). `--tile`
  /// decides it from the tile's shape and `--pipeline` again where it moves the operands
  /// into shared-memory rings (lib/mma-form.c); the lowering reads it, and runs every dot
  /// on mma.sync for targets without wgmma. Category: dot.
  irdl.operation @dot {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %c = irdl.base "!builtin.tensor"
    %sync = irdl.is "sync"
    %wgmma = irdl.is "wgmma"
    %direct = irdl.is "wgmma-direct"
    %form = irdl.any_of(%sync, %wgmma, %direct)
    irdl.operands(a: %a, b: %b, acc: %c)
    irdl.results(result: %c)
    irdl.attributes {"mma" = %form}
  }

  /// A shared-memory buffer of the program: `memref<S x R x C x T, 3>` holds S *slots*,
  /// each an R x C tile of T stored row by row (the lowering pads each row by 16 bytes so
  /// that tensor-core fragment loads hit distinct banks). `--pipeline` makes one per
  /// operand of a dot, a ring of S stages; `--tile` one per input of a staged row kernel,
  /// a 1 x C slot per chunk of the row. A buffer filled by `hopper.tma_load`, or marked
  /// with the unit attribute `tile.swizzled` (`--pipeline`'s resident copy of a dot
  /// operand, one slot a K step, filled by `tile.async_copy`), is laid out as TMA writes
  /// it instead: unpadded, 1024-byte aligned slots, 128-byte rows swizzled, which wgmma
  /// reads in place. Category: async.
  irdl.operation @local_alloc {
    %m = irdl.base "!builtin.memref"
    irdl.results(result: %m)
  }

  /// Asynchronous masked gather into slot `slot` (an i32) of `buffer`: element i of the
  /// flat tile (row i / C, column i % C of the slot) becomes `ptr[offsets[i]]` where
  /// `mask[i]`, else zero. On sm_80 and later it is `cp.async` of 16 bytes per thread run
  /// where the run is contiguous and aligned. The copies a thread issued since its last
  /// `tile.async_commit` form one *group*. Category: async.
  irdl.operation @async_copy {
    %p = irdl.base @tile::@ptr
    %o = irdl.base "!builtin.tensor"
    %m = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.memref"
    %i = irdl.is i32
    irdl.operands(ptr: %p, offsets: %o, mask: %m, buffer: %b, slot: %i)
  }

  /// Closes the group of copies this thread issued since the last commit. Category: async.
  irdl.operation @async_commit {
  }

  /// Waits until at most `pending` of this thread's committed groups are still in flight,
  /// then until every thread of the program is here (a barrier): the copies of the other
  /// groups are visible to all threads, and all reads of slots issued before the wait are
  /// done. Category: async.
  irdl.operation @async_wait {
    %a = irdl.base "#builtin.integer"
    irdl.attributes {"pending" = %a}
  }

  /// Waits until every thread of the program is here (a block barrier): reads and writes
  /// of shared memory before it are done for all threads after it. Category: async.
  irdl.operation @barrier {
  }

  /// Slot `slot` (an i32) of `buffer` as an R x C tile (a 1 x C slot: as a 1-D tile of C,
  /// a staged row's chunk, which any op reads). A tile.dot operand read this way feeds the
  /// tensor cores straight from shared memory. Category: async.
  irdl.operation @local_load {
    %b = irdl.base "!builtin.memref"
    %i = irdl.is i32
    %t = irdl.base "!builtin.tensor"
    irdl.operands(buffer: %b, slot: %i)
    irdl.results(result: %t)
  }
}
