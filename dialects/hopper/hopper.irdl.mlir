/// hopper (gpu-hopper): the Hopper (sm_90a) features that tile kernels for GEMMs use.
///
/// TMA (the tensor memory accelerator: bulk tensor copies between global and shared memory
/// with addresses made in hardware), mbarriers (transaction-counting barriers in shared
/// memory on which TMA copies complete), wgmma (warpgroup matrix multiply-accumulate on
/// shared-memory operand descriptors), the fences that order them, and thread-block
/// clusters. Definitions only for now: the lowering to `nvgpu`/`nvvm` comes with the GEMM
/// work. Shared-memory buffers are `memref`s in address space 3.
irdl.dialect @hopper {
  /// A TMA tensor-map descriptor (128 bytes, made on the host), passed by pointer.
  irdl.type @tma_desc {
  }

  /// An mbarrier object in shared memory.
  irdl.type @mbarrier {
  }

  /// A wgmma shared-memory matrix descriptor (64-bit).
  irdl.type @wgmma_desc {
  }

  /// Initialize `barrier` to expect `count` arrivals. Category: mbarrier.
  irdl.operation @mbarrier_init {
    %b = irdl.base @hopper::@mbarrier
    %c = irdl.base "#builtin.integer"
    irdl.operands(barrier: %b)
    irdl.attributes {"count" = %c}
  }

  /// Arrive on `barrier` and add `bytes` (an integer operand) to its expected transaction
  /// count. Category: mbarrier.
  irdl.operation @mbarrier_arrive_expect_tx {
    %b = irdl.base @hopper::@mbarrier
    %n = irdl.any
    irdl.operands(barrier: %b, bytes: %n)
  }

  /// Wait until the phase `phase` (i1 operand) of `barrier` has completed. Category: mbarrier.
  irdl.operation @mbarrier_wait {
    %b = irdl.base @hopper::@mbarrier
    %p = irdl.any
    irdl.operands(barrier: %b, phase: %p)
  }

  /// Bulk tensor copy global->shared: the box at `coords` of the tensor that `desc` maps is
  /// written to `dst` and completes on `barrier`. Category: tma.
  irdl.operation @tma_load {
    %d = irdl.base @hopper::@tma_desc
    %m = irdl.base "!builtin.memref"
    %b = irdl.base @hopper::@mbarrier
    %c = irdl.any
    irdl.operands(desc: %d, dst: %m, barrier: %b, coords: variadic %c)
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

  /// `wgmma.wait_group`: wait until at most `pending` groups are in flight. Category: wgmma.
  irdl.operation @wgmma_wait {
    %i = irdl.base "#builtin.integer"
    irdl.attributes {"pending" = %i}
  }

  /// `fence.proxy.async.shared::cta`: make ordinary shared-memory writes visible to TMA and
  /// wgmma. Category: fence.
  irdl.operation @fence_proxy_async {
  }

  /// The index of this block within its cluster along `axis`, an i32. Category: cluster.
  irdl.operation @cluster_ctaid {
    %i = irdl.is i32
    %a = irdl.base "#builtin.integer"
    irdl.results(result: %i)
    irdl.attributes {"axis" = %a}
  }

  /// Barrier across all blocks of the cluster (arrive + wait). Category: cluster.
  irdl.operation @cluster_barrier {
  }
}
