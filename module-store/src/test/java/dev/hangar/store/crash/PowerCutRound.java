package dev.hangar.store.crash;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.Message;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import dev.hangar.store.verify.StoreVerifier;
import dev.hangar.store.verify.VerifyReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One power-cut round: a store on a live directory, writers putting messages, the power cut at a random moment
 * ({@link PowerCutDisk}), then the store reopened from what the disk kept and every queue read back.
 *
 * <p>A message is counted acknowledged when its put returned {@code PUT_OK} before the cut (checked after the
 * put returned, so a put acknowledged during the cut is left out rather than counted wrongly). Lost means not
 * readable through its ConsumeQueue after recovery. Every readable record must carry exactly the body that was
 * put (bodies are derived from the seed, writer and sequence number), so a torn or mixed record is caught.
 */
final class PowerCutRound {
    static final String TOPIC = "PowerCut";
    private static final int QUEUES = 4;
    /** Readable messages looked up by key after each round. */
    private static final int KEY_SAMPLE = 20;

    record Ack(int writer, int n, long offset, int size) {
    }

    /**
     * @param acknowledged puts acknowledged before the cut
     * @param lost         acknowledged puts not readable after recovery
     * @param lostFlushed  lost puts that lay wholly below the last forced CommitLog byte
     * @param readable     messages readable after recovery (acknowledged or not)
     * @param problems     torn or foreign records, broken queues, verify findings: must be empty in every mode
     */
    record Outcome(int acknowledged, int lost, int lostFlushed, int readable, List<String> problems) {
    }

    private final long seed;
    private final Random random;
    private final boolean ignoreCreationForces;
    /** Writers per round: drawn from [minWriters, maxWriters]; 0 and 0 for the default 1 to 4. */
    private int minWriters;
    private int maxWriters;

    PowerCutRound(long seed) {
        this(seed, false);
    }

    /** Rounds with {@code min} to {@code max} writer threads (concurrent appends want many) instead of 1 to 4. */
    PowerCutRound writers(int min, int max) {
        this.minWriters = min;
        this.maxWriters = max;
        return this;
    }

    /** @param ignoreCreationForces the negative control of durable creation (see {@link PowerCutDisk}) */
    PowerCutRound(long seed, boolean ignoreCreationForces) {
        this.seed = seed;
        this.random = new Random(seed);
        this.ignoreCreationForces = ignoreCreationForces;
    }

    /**
     * @param live           the directory the store writes
     * @param shadow         where the power-cut disk keeps what was forced
     * @param writeSettings  settings of the store that runs until the cut ("key", "value", ...)
     * @param reopenSettings settings of the store reopened from the shadow
     */
    Outcome run(Path live, Path shadow, String[] writeSettings, String[] reopenSettings) throws Exception {
        List<Ack> acks;
        try (PowerCutDisk disk = new PowerCutDisk(live, shadow, new Random(seed * 31 + 17),
                ignoreCreationForces)) {
            acks = writeUntilCut(live, disk, writeSettings);
            if (!disk.errors().isEmpty()) {
                throw new AssertionError("the shadow disk failed: " + disk.errors());
            }
            Outcome outcome = check(shadow, acks, disk.durableCommitLogEnd(), reopenSettings);
            if (!outcome.problems().isEmpty()) {
                List<String> problems = new ArrayList<>(outcome.problems());
                problems.add(disk.cutSummary());
                return new Outcome(outcome.acknowledged(), outcome.lost(), outcome.lostFlushed(), outcome.readable(),
                        problems);
            }
            return outcome;
        }
    }

    private List<Ack> writeUntilCut(Path live, PowerCutDisk disk, String[] settings) throws Exception {
        Queue<Ack> acks = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Throwable> failures = new ArrayList<>();
        DefaultMessageStore store = TestStores.started(live, settings);
        int writers = maxWriters == 0 ? 1 + random.nextInt(4)
                : minWriters + random.nextInt(maxWriters - minWriters + 1);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread t = new Thread(() -> {
                try {
                    for (int n = 0; !stop.get(); n++) {
                        PutMessageResult r = store.putMessage(message(writer, n));
                        if (r.isOk() && !disk.isCut()) {
                            acks.add(new Ack(writer, n, r.appendResult().wroteOffset(), r.appendResult().wroteBytes()));
                        }
                    }
                } catch (RuntimeException e) {
                    if (!stop.get()) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                }
            }, "power-cut-writer-" + w);
            threads.add(t);
            t.start();
        }
        try {
            TestStores.await("a first acknowledged put", () -> !acks.isEmpty() || !failures.isEmpty());
            Thread.sleep(10 + random.nextInt(250));
            disk.cut();
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join(30_000);
            }
            store.shutdown();
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("a writer failed before the cut", failures.get(0));
        }
        return new ArrayList<>(acks);
    }

    private Outcome check(Path shadow, List<Ack> acks, long durableEnd, String[] settings) {
        List<String> problems = new ArrayList<>();
        Set<Long> readable = new HashSet<>();
        StoreConfig config = TestStores.config(shadow, settings);
        try (DefaultMessageStore store = new DefaultMessageStore(config)) {
            try {
                store.start();
            } catch (RuntimeException e) {
                problems.add("the store did not start again after the power cut: " + e);
                return new Outcome(acks.size(), acks.size(), 0, 0, problems);
            }
            if (!store.recoveryReport().abnormal()) {
                problems.add("the abort marker did not survive the power cut: recovery trusted the files as after a "
                        + "clean shutdown");
            }
            for (int q = 0; q < QUEUES; q++) {
                readQueue(store, q, readable, problems);
            }
            findByKey(store, readable, problems);
        }
        int lost = 0;
        int lostFlushed = 0;
        for (Ack a : acks) {
            if (!readable.contains(key(a.writer(), a.n()))) {
                lost++;
                if (a.offset() + a.size() <= durableEnd) {
                    lostFlushed++;
                    if (lostFlushed <= 5) {
                        problems.add("acknowledged put " + a + " lay below the forced end " + durableEnd + " and is gone");
                    }
                }
            }
        }
        VerifyReport report = StoreVerifier.verify(shadow, config);
        if (!report.healthy()) {
            problems.add("verify after recovery: " + report);
        }
        return new Outcome(acks.size(), lost, lostFlushed, readable.size(), problems);
    }

    private void readQueue(DefaultMessageStore store, int queueId, Set<Long> readable, List<String> problems) {
        long max = store.getMaxOffsetInQueue(TOPIC, queueId);
        long offset = store.getMinOffsetInQueue(TOPIC, queueId);
        while (offset < max) {
            GetMessageResult r = store.getMessage("power-cut", TOPIC, queueId, offset, 32, null);
            if (r.status() != GetMessageStatus.FOUND || r.messages().isEmpty()) {
                problems.add("queue " + queueId + " offset " + offset + " of " + max + ": " + r.status());
                return;
            }
            for (StoredMessage m : r.messages()) {
                if (m.queueOffset() != offset) {
                    problems.add("queue " + queueId + ": expected queue offset " + offset + ", read " + m.queueOffset());
                    return;
                }
                String corrupt = checkBody(m);
                if (corrupt != null) {
                    problems.add("queue " + queueId + " offset " + offset + ": " + corrupt);
                } else {
                    String[] head = new String(m.body(), 0, Math.min(40, m.body().length), StandardCharsets.US_ASCII)
                            .split(" ");
                    if (!readable.add(key(Integer.parseInt(head[1]), Integer.parseInt(head[2])))) {
                        problems.add("queue " + queueId + " offset " + offset + ": a message readable twice");
                    }
                }
                offset++;
            }
        }
    }

    /**
     * The index survived the cut too: a sample of the readable messages is found by its key (a lost or torn index
     * file, or one recovery did not rebuild from the checkpoint, would miss them).
     */
    private void findByKey(DefaultMessageStore store, Set<Long> readable, List<String> problems) {
        List<Long> sample = new ArrayList<>(readable);
        java.util.Collections.shuffle(sample, random);
        for (long k : sample.subList(0, Math.min(KEY_SAMPLE, sample.size()))) {
            String key = "pc-" + (int) (k >>> 32) + "-" + (int) k;
            if (store.queryMessage(TOPIC, key, 4, 0, Long.MAX_VALUE).messages().isEmpty()) {
                problems.add("readable message " + key + " is not found by its key after recovery");
                return;
            }
        }
    }

    /** Null when the stored body is exactly one that was put; else what is wrong. */
    private String checkBody(StoredMessage m) {
        byte[] body = m.body();
        String text = new String(body, 0, Math.min(40, body.length), StandardCharsets.US_ASCII);
        String[] head = text.split(" ");
        if (head.length < 4 || !head[0].equals("pc")) {
            return "a record that was never put (torn?): " + text;
        }
        try {
            byte[] expected = body(Integer.parseInt(head[1]), Integer.parseInt(head[2]));
            return Arrays.equals(expected, body) ? null : "a torn body for writer " + head[1] + " #" + head[2];
        } catch (NumberFormatException e) {
            return "a record that was never put (torn?): " + text;
        }
    }

    private Message message(int writer, int n) {
        return TestStores.message(TOPIC, (writer + n) % QUEUES, "").body(body(writer, n)).keys("pc-" + writer + "-" + n);
    }

    /** The body of writer's n-th put: a readable head, then filler of a length and content fixed by the seed. */
    byte[] body(int writer, int n) {
        Random r = new Random(seed * 1_000_003L + writer * 65_537L + n);
        byte[] head = ("pc " + writer + " " + n + " ").getBytes(StandardCharsets.US_ASCII);
        byte[] body = Arrays.copyOf(head, head.length + 24 + r.nextInt(1500));
        for (int i = head.length; i < body.length; i++) {
            body[i] = (byte) ('a' + r.nextInt(26));
        }
        return body;
    }

    private static long key(int writer, int n) {
        return ((long) writer << 32) | n;
    }
}
