/// hopper (gpu-hopper): the Hopper (sm_90a) features that tile kernels for GEMMs use.
///
/// TMA (the tensor memory accelerator: bulk tensor copies between global and shared memory
/// with addresses made in hardware), mbarriers (transaction-counting barriers in shared
/// memory on which TMA copies complete), wgmma (warpgroup matrix multiply-accumulate on
/// shared-memory operand descriptors), the fences that order them, thread-block clusters,
/// and grid-dependency control (programmatic dependent launch, sm_90). `--pipeline
/// stage-in=tma` makes the TMA and mbarrier ops, `--pdl` the grid-dependency ops, and
/// `--convert-tile-to-gpu` lowers them to `nvvm` (tile.dot itself lowers to wgmma there
/// directly), with the cluster barriers of `--tile multicast`'s rings; the wgmma, fence and
/// cluster_ctaid ops are definitions for hand-written kernels, not lowered yet.
/// Shared-memory buffers are `memref`s in address space 3.
irdl.dialect @hopper {
  /// A TMA tensor-map descriptor (128 bytes, made on the host): a kernel parameter passed
  /// by value (`__grid_constant__`), read by the TMA unit in place.
  irdl.type @tma_desc {
  }

  /// A group of mbarriers (transaction-counting barriers) in shared memory.
  irdl.type @mbarrier {
  }

  /// A wgmma shared-memory matrix descriptor (64-bit).
  irdl.type @wgmma_desc {
  }

  /// `count` mbarriers in shared memory, each initialized (by thread 0, fenced for the
  /// async proxy, then a barrier of every thread of the block) to expect one arrival per
  /// phase, or `arrivals` (an optional integer, 1 to 1024: a warp-specialised ring's
  /// `empty` mbarriers, which every consumer thread or warp arrives on). Category:
  /// mbarrier.
  irdl.operation @mbarrier_alloc {
    %b = irdl.base @hopper::@mbarrier
    %c = irdl.base "#builtin.integer"
    irdl.results(result: %b)
    irdl.attributes {"count" = %c}
  }

  /// Arrive on mbarrier `slot` (an i32) of `barriers` and add `bytes` (an i32) to its
  /// expected transaction count. Category: mbarrier.
  irdl.operation @mbarrier_arrive_expect_tx {
    %b = irdl.base @hopper::@mbarrier
    %i = irdl.is i32
    irdl.operands(barriers: %b, slot: %i, bytes: %i)
  }

  /// When `pred` (an i1), arrive once on mbarrier `slot` (an i32) of `barriers` (a
  /// release at CTA scope: this thread's reads of the slot are done). Without `multicast`
  /// every thread arrives (`arrivals` = the consumer threads); with `multicast` = C (2 to
  /// 8: a thread-block cluster of C blocks along x whose TMA copies share the slot) lane j
  /// < C of each warp arrives on that mbarrier of block j of the cluster (`arrivals` = C
  /// times the consumer warps). The consumers of a warp-specialised ring (`--pipeline
  /// warp-specialize`) free a slot this way. Category: mbarrier.
  irdl.operation @mbarrier_arrive {
    %b = irdl.base @hopper::@mbarrier
    %i = irdl.is i32
    %p = irdl.is i1
    irdl.operands(barriers: %b, slot: %i, pred: %p)
  }

  /// True (an i1) in the producer warp: the warp (or warpgroup, with 4) a kernel with
  /// `tile.producer_warps` runs after its `tile.num_warps` warps. An `scf.if` on it splits a warp-specialised
  /// kernel (`--pipeline warp-specialize`): its then-region is the producer's (its tile
  /// ops see the warp as threads 0-31 of the layout: thread 0 issues the TMA copies), its
  /// else-region the consumers' (their block barriers count only the consumer threads).
  /// Category: mbarrier.
  irdl.operation @producer_warp {
    %i = irdl.is i1
    irdl.results(result: %i)
  }

  /// Every thread waits until phase `phase` (an i32: 0 or 1, the parity) of mbarrier `slot`
  /// of `barriers` has completed. Category: mbarrier.
  irdl.operation @mbarrier_wait {
    %b = irdl.base @hopper::@mbarrier
    %i = irdl.is i32
    irdl.operands(barriers: %b, slot: %i, phase: %i)
  }

  /// Bulk tensor copy global->shared of one operand tile: when `pred` (i1), thread 0 arrives
  /// on mbarrier `slot` of `barriers` expecting the tile's bytes and copies the tile whose
  /// first element is at `offsets[0]` (an i32 tile: the row-major offset of element (row,
  /// col) of the `dims` = [D0, D1] tensor that `desc` maps, so row = offsets[0] / D1) into
  /// slot `slot` of `buffer` (a tile.local_alloc ring, S x R x C), in 128-byte swizzled
  /// blocks of 64 two-byte columns (C / 64 copies of an R x 64 box); the copies complete on
  /// the mbarrier. Boxes past the tensor's edges read zeros. With `dims` = [B, D0, D1]
  /// the map is batched (B matrices of D0 x D1 one after another; the box's matrix is
  /// offsets[0] / (D0 D1)), and a box past row D0 reads zeros, not the next matrix.
  /// An optional integer attribute `multicast` = C (2 to 8; 2-D maps, R a multiple of 8 C:
  /// `--tile multicast`) shares the tile over a thread-block cluster of C blocks along x:
  /// block r (x mod C) copies rows r R / C .. (r + 1) R / C - 1 into the same slot of
  /// every block (the map's box is R / C rows), and each block's mbarrier still expects
  /// the whole tile. Category: tma.
  irdl.operation @tma_load {
    %d = irdl.base @hopper::@tma_desc
    %m = irdl.base "!builtin.memref"
    %i = irdl.is i32
    %b = irdl.base @hopper::@mbarrier
    %o = irdl.base "!builtin.tensor"
    %p = irdl.is i1
    %a = irdl.base "#builtin.dense_array"
    irdl.operands(desc: %d, buffer: %m, slot: %i, barriers: %b, offsets: %o, pred: %p)
    irdl.attributes {"dims" = %a}
  }

  /// Bulk tensor copy shared->global of `src` to the box at `coords`. Category: tma.
  irdl.operation @tma_store {
    %d = irdl.base @hopper::@tma_desc
    %m = irdl.base "!builtin.memref"
    %c = irdl.any
    irdl.operands(desc: %d, src: %m, coords: variadic %c)
  }

  /// Make a wgmma descriptor for the shared-memory matrix `src` with swizzle mode `swizzle`
  /// (0, 32, 64 or 128 bytes). Category: wgmma.
  irdl.operation @wgmma_descriptor {
    %m = irdl.base "!builtin.memref"
    %s = irdl.base "#builtin.integer"
    %r = irdl.base @hopper::@wgmma_desc
    irdl.operands(src: %m)
    irdl.results(result: %r)
    irdl.attributes {"swizzle" = %s}
  }

  /// Warpgroup MMA: `acc += A * B` for an `m`x`n`x`k` shape, operands from descriptors, the
  /// accumulator in registers (a tile value of the accumulator type). Category: wgmma.
  irdl.operation @wgmma {
    %d = irdl.base @hopper::@wgmma_desc
    %t = irdl.any
    %m = irdl.base "#builtin.integer"
    %n = irdl.base "#builtin.integer"
    %k = irdl.base "#builtin.integer"
    irdl.operands(a: %d, b: %d, acc: %t)
    irdl.results(result: %t)
    irdl.attributes {"m" = %m, "n" = %n, "k" = %k}
  }

  /// `wgmma.fence`: order register accesses before the next wgmma. Category: wgmma.
  irdl.operation @wgmma_fence {
  }

  /// `wgmma.commit_group`: close the group of wgmma ops issued so far. Category: wgmma.
  irdl.operation @wgmma_commit {
  }

  /// `wgmma.wait_group`: wait until at most `pending` of this warpgroup's committed groups
  /// are in flight. After a `tile.dot` it replaces the dot's own wait for all (`--pipeline
  /// wgmma-in-flight` puts `pending = 1` there and `pending = 0` after the K loop); needs
  /// the wgmma lowering (sm_90a). Category: wgmma.
  irdl.operation @wgmma_wait {
    %i = irdl.base "#builtin.integer"
    irdl.attributes {"pending" = %i}
  }

  /// `fence.proxy.async.shared::cta`: make ordinary shared-memory writes visible to TMA and
  /// wgmma. Category: fence.
  irdl.operation @fence_proxy_async {
  }

  /// `griddepcontrol.wait`: wait until the kernels this launch depends on have completed
  /// and their memory is visible. Under programmatic dependent launch a kernel may start
  /// before the previous one on its stream ends; it must wait here before it touches
  /// anything that one may write. Without it (a plain launch) this returns at once.
  /// `--pdl` puts it in tile kernels. Category: launch.
  irdl.operation @griddep_wait {
  }

  /// `griddepcontrol.launch_dependents`: this program lets the next kernel on the stream
  /// start (when launched with programmatic stream serialization) once every program of
  /// this kernel has executed it or exited. `--pdl` puts it in tile kernels. Category:
  /// launch.
  irdl.operation @griddep_launch_dependents {
  }

  /// The index of this block within its cluster along `axis`, an i32. Category: cluster.
  irdl.operation @cluster_ctaid {
    %i = irdl.is i32
    %a = irdl.base "#builtin.integer"
    irdl.results(result: %i)
    irdl.attributes {"axis" = %a}
  }

  /// Barrier across all blocks of the cluster: every thread arrives (relaxed: no memory
  /// order beyond what fences give) and waits for every thread of the cluster. The
  /// multicast rings' first barrier (after `fence.mbarrier_init`). Category: cluster.
  irdl.operation @cluster_barrier {
  }

  /// The arrive half of a cluster barrier (`barrier.cluster.arrive.relaxed`, every
  /// thread): this block is done with what a peer may overwrite next. Each arrive is
  /// followed by one `cluster_wait` before the next arrive. Category: cluster.
  irdl.operation @cluster_arrive {
  }

  /// The wait half (`barrier.cluster.wait`, every thread): every thread of the cluster has
  /// arrived since this thread's last wait. Category: cluster.
  irdl.operation @cluster_wait {
  }
}
