package dev.hangar.bench;

import java.util.List;
import java.util.Locale;

/** How the benchmark measures, as written into the report. */
final class Method {
    private static final String TEXT = """
            Every engine runs in the same JVM (`-Xms2g -Xmx2g -XX:+AlwaysPreTouch`, G1: the heap is faulted in
            at start, as RocketMQ's broker scripts do, so no put pays a first touch of a heap page), one after the other, %d round(s) per
            workload with the engine order shuffled in every round (seeded, so a run repeats its order), each
            run in a fresh temporary store directory that is deleted afterwards. Before every workload each
            engine makes one unrecorded warm-up run of a tenth of its messages. Every figure is the median over
            the rounds with the min–max range in brackets. Apache RocketMQ 4.9.8's `DefaultMessageStore` is used as a
            broker uses it (`MessageStoreConfig` defaults unless the workload says otherwise; 4.9.8's default
            put lock is the reentrant lock); Hangar's `DefaultMessageStore` with its built-in providers
            (default lock `reentrant`; its default `warmMapedFileEnable=true`, the CommitLog pretoucher, except
            the put-stall row's "Hangar" run, which is without it).
            CommitLog files are 256 MiB on both; ConsumeQueue and index files keep their defaults (300 000
            units; 5 000 000 slots × 20 000 000 entries).

            - Every message has one unique key (`KEYS`) and one tag (`TAGS`), one topic, 8 queues (the
              many-queues workloads: 1 000 or 12 500 topics × 8 queues, round-robin).
            - Chronicle Queue (open source, `net.openhft:chronicle-queue` %s) runs the raw-append rows only
              (async-1k-1t, async-1k-4t, and put-stall-1k-1t as the bound of a paced write without store logic): one queue, each writer thread its own appender, each excerpt the
              topic, queue id, born timestamp, tag, key and the same 1 KiB body. It builds no ConsumeQueue and no
              index, so its run is timed until every message is written, not until readable by key.
            - Locks: "spin" is a pure CAS spin lock on both engines; "adaptive" is Hangar's spin-then-park
              lock (RocketMQ has none: it runs its spin lock in that row).
            - Writer threads start together and call the store's synchronous put (`putMessage`, or
              `putMessages` with a batch), or keep N `asyncPutMessage` calls in flight (the in-flight row,
              latency from call to answer); each call is timed into a histogram (p50 / p99 / p99.9 / p99.99 /
              max, log-linear buckets within 1.6 %%); "puts > 20 ms" counts the calls slower than 20 ms.
            - A run is timed from the first put until every message is readable: every queue's max offset
              reaches the messages put into it and 64 sampled keys are found by `queryMessage` (polled every
              1 ms; a poll resumes at the first queue still short, so it does not cost a core at 100 000 queues).
              messages/s and MB/s (body bytes) use that time; "dispatch" is the part after the last put.
            - Put stalls (`put-stall-1k-1t`): 1 thread, 1 KiB, paced at half of that store's 1-thread rate in
              this run (the async-1k-1t median of Hangar, used for both Hangar rows and Chronicle, and of RocketMQ; a short
              unpaced calibration run when that row is skipped) for %d s per engine, 256 MiB CommitLog files so
              several new files are entered. Puts follow an absolute schedule (put n at start + n × interval, so
              a stall does not push later puts back) and only the put call is timed, not the pacer's wait. One
              round per engine (four runs of %d s), with a warm-up of a twentieth of it: Hangar with
              `warmMapedFileEnable=true` (its CommitLog pretoucher faults pages in ahead of the writer on its
              own thread) and `pageCacheKeepBehindBytes=1 GiB` (the pretoucher gives the page cache more than 1 GiB
              behind the flushed position back, so new pages reuse that memory), Hangar with
              `warmMapedFileEnable=false`, RocketMQ with its default (`warmMapedFileEnable=false`), and Chronicle
              Queue's raw append (no store logic) paced at Hangar's rate: the machine's bound on the row.
            - 100 000 queues (`queues-100k-256b-4t`): one round, Hangar only. RocketMQ maps every
              ConsumeQueue file for as long as it is open and would need 100 000 mappings, more than
              `vm.max_map_count` (65 530 here). Its 8-queue reference is `async-256b-4t` (same 256 B, 4
              threads, message count).
            - Allocation: the writer thread's allocation counter
              (`com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes`) is read just before and
              just after each put call, so only what the store allocates on the put path is counted
              (building the next message is not). RocketMQ receives its properties string and batch bodies
              pre-encoded, as its broker hands them over from the network. A second figure adds every other
              thread of the process (dispatch, flush, group commit, file allocation, …) from the first put
              until readable (`getThreadAllocatedBytes` over all threads but the bench's own).
            - Disk: the store directory's blocks (`du`, so reserved and sparse files count as they are) once
              the store is closed, so every file it makes has landed (Hangar creates a new queue's ConsumeQueue
              file on its flush side, possibly after the queue is readable). The 8 000-queue disk target counts the CommitLog by the bytes written
              to it (it is reserved or pre-faulted a whole 256 MiB file at a time on purpose) and compares with
              the data written: CommitLog bytes + 20 B per message for its ConsumeQueue unit and 20 B for its
              index entry. Directories count too: the RocketMQ layout has one per topic and one per queue, a
              file-system block each (4 KiB on ext4), so 8 000 queues take about 36 MiB of directories alone.
            - Heap: used heap after a full GC at the end of the run, the store still open.
            - Transient pool: 3 buffers of 256 MiB (Hangar `mappedFile=transient-pool`,
              RocketMQ `transientStorePoolEnable=true`).
            - Sync flush: `flushDiskType=SYNC_FLUSH` on both (group commit; each put waits for its fsync).
              The `-pool` sync rows are Hangar only: SYNC_FLUSH over the transient pool's write buffer, which
              its group commit writes to the file with `pwrite` before each force (RocketMQ 4.9.8 ignores its
              pool under SYNC_FLUSH, so its figures for that mode are the rows without `-pool`).
            - A run that throws is listed under "Runs that did not complete" and left out of the medians.
            - Messages per run: %s.
            - Duration: estimated %s before the run (from the rates of an idle 2-core machine), took %s (until
              the report was written; the many-queue store directories are deleted after it).
            """;

    private Method() {
    }

    static String text(int rounds, List<Workload> workloads, Report.RunFacts facts) {
        StringBuilder counts = new StringBuilder();
        for (Workload w : workloads) {
            if (counts.length() > 0) {
                counts.append("; ");
            }
            counts.append(w.name()).append(' ');
            if (w.name().equals(Workload.PUT_STALL)) {
                counts.append(facts.stallSeconds()).append(" s × the paced rate");
            } else {
                counts.append(String.format(Locale.ROOT, "%,d", w.effectiveMessages()));
                if (w.rounds(rounds) != rounds) {
                    counts.append(" (").append(w.rounds(rounds)).append(" round)");
                }
            }
        }
        return TEXT.formatted(rounds, chronicleVersion(), facts.stallSeconds(), facts.stallSeconds(), counts,
                minutes(facts.expected()), minutes(facts.took()));
    }

    static String minutes(java.time.Duration d) {
        return String.format(Locale.ROOT, "%.1f min", d.toMillis() / 60_000.0);
    }

    /** The Chronicle Queue version on the class path, from its jar's Maven properties. */
    private static String chronicleVersion() {
        try (var in = Method.class.getResourceAsStream("/META-INF/maven/net.openhft/chronicle-queue/pom.properties")) {
            if (in != null) {
                java.util.Properties p = new java.util.Properties();
                p.load(in);
                return p.getProperty("version", "(version unknown)");
            }
        } catch (java.io.IOException e) {
            // fall through
        }
        return "(version unknown)";
    }
}
