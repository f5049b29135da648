package dev.hangar.bench;

/** How the benchmark measures, as written into the report. */
final class Method {
    static final String TEXT = """
            Both engines run in the same JVM (`-Xms2g -Xmx2g`, G1), one after the other, %d round(s) per
            workload with the engine order shuffled in every round (seeded, so a run repeats its order), each
            run in a fresh temporary store directory that is deleted afterwards. Before every workload each
            engine makes one unrecorded warm-up run of a tenth of its messages. Every figure is the median over
            the rounds with the min–max range in brackets. Apache RocketMQ 4.9.8's `DefaultMessageStore` is used as a
            broker uses it (`MessageStoreConfig` defaults unless the workload says otherwise; 4.9.8's default
            put lock is the reentrant lock); Hangar's `DefaultMessageStore` with its built-in providers
            (default lock `reentrant`). CommitLog files are 256 MiB on both; ConsumeQueue and index files
            keep their defaults (300 000 units; 5 000 000 slots × 20 000 000 entries).

            - Every message has one unique key (`KEYS`) and one tag (`TAGS`), one topic, 8 queues (the
              many-queues workload: 1 000 topics × 8 queues, round-robin).
            - Locks: "spin" is a pure CAS spin lock on both engines; "adaptive" is Hangar's spin-then-park
              lock (RocketMQ has none: it runs its spin lock in that row).
            - Writer threads start together and call the store's synchronous put (`putMessage`, or
              `putMessages` with a batch); each call is timed into a histogram (p50 / p99 / p99.9 / max).
            - A run is timed from the first put until every message is readable: the 8 queues' max offsets
              sum to the message count and 64 sampled keys are found by `queryMessage`.
              messages/s and MB/s (body bytes) use that time; "dispatch" is the part after the last put.
            - Allocation: the writer thread's allocation counter
              (`com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes`) is read just before and
              just after each put call, so only what the store allocates on the put path is counted
              (building the next message is not). RocketMQ receives its properties string and batch bodies
              pre-encoded, as its broker hands them over from the network. A second figure adds every other
              thread of the process (dispatch, flush, group commit, file allocation, …) from the first put
              until readable (`getThreadAllocatedBytes` over all threads but the bench's own).
            - Disk: the store directory's blocks (`du`, so reserved and sparse files count as they are) when
              every message is readable.
            - Heap: used heap after a full GC at the end of the run, the store still open.
            - Transient pool: 3 buffers of 256 MiB (Hangar `mappedFile=transient-pool`,
              RocketMQ `transientStorePoolEnable=true`).
            - Sync flush: `flushDiskType=SYNC_FLUSH` on both (group commit; each put waits for its fsync).
            """;

    private Method() {
    }
}
