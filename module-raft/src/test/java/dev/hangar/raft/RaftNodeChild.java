package dev.hangar.raft;

import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.MessageFilter;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One raft node in its own process, for the kill -9 and partition tests:
 * {@code dir peers selfId provider writers queues [key=value ...]} (the pairs: more store settings). While
 * it leads, {@code writers} threads put messages with unique bodies and append each acknowledged one to
 * {@code dir/../<selfId>.acks} (written per put, so a kill -9 loses none of the record) and each body it is about to
 * put to {@code <selfId>.tried}; a reader thread records every message it reads to {@code <selfId>.reads}, and an
 * arrival listener (what wakes a long poll) the message each arrival announces to {@code <selfId>.polls}. Every
 * 50 ms it writes its view to {@code dir/../<selfId>.status} ({@code ROLE ready term committed maxOffset}). On "dump"
 * from stdin it waits until its committed offset reaches the number given, writes every queue's bodies in queue order
 * to {@code <selfId>.dump}; "burst N" puts N more at once without waiting ({@link #burst}); "probe" and "keys FILE" ask
 * what its queues and index show ({@link #probe}, {@link #keys}); "stop" closes the store and exits 0.
 */
public final class RaftNodeChild {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String peers = args[1];
        String self = args[2];
        String provider = args[3];
        int writers = Integer.parseInt(args[4]);
        int queues = Integer.parseInt(args[5]);
        Path base = dir.getParent();
        List<String> settings = new ArrayList<>(List.of("haService", provider, "raft.electionTimeoutMin", "1000",
                "raft.electionTimeoutMax", "2000"));
        for (int i = 6; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            settings.add(args[i].substring(0, eq));
            settings.add(args[i].substring(eq + 1));
        }
        DefaultMessageStore store = new DefaultMessageStore(RaftStores.config(dir, peers, self,
                settings.toArray(String[]::new)));
        store.start();
        OutputStream polls = new FileOutputStream(base.resolve(self + ".polls").toFile(), true);
        store.addMessageArrivingListener((topic, queue, maxOffset) -> longPollWakes(store, polls, topic, queue,
                maxOffset));
        OutputStream acks = new FileOutputStream(base.resolve(self + ".acks").toFile(), true);
        OutputStream tried = new FileOutputStream(base.resolve(self + ".tried").toFile(), true);
        String nonce = self + "-" + ProcessHandle.current().pid();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread t = new Thread(() -> write(store, acks, tried, nonce + "-w" + writer, writer % queues),
                    "writer-" + w);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        Thread reader = new Thread(() -> read(store, base.resolve(self + ".reads"), queues), "reader");
        reader.setDaemon(true);
        reader.start();
        Thread status = new Thread(() -> {
            while (true) {
                try {
                    ConsensusStatus s = RaftStores.status(store);
                    Path tmp = base.resolve(self + ".status.tmp");
                    Files.writeString(tmp, s.role() + " " + s.leaderReady() + " " + s.term() + " "
                            + s.committedOffset() + " " + store.getMaxPhyOffset() + "\n");
                    Files.move(tmp, base.resolve(self + ".status"), StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                } catch (Exception e) {
                    e.printStackTrace();
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "status");
        status.setDaemon(true);
        status.start();
        System.out.println("STARTED " + self);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith("pause")) {
                writing = false;
                // a put that started before the pause may still be acknowledged: answer once none is under way, so
                // the harness reads the acknowledgements and the committed offset after the last of them
                while (putsUnderWay.get() > 0) {
                    Thread.sleep(1);
                }
                // the committed offset now, not the status file's (up to 50 ms old): on the leader it covers every
                // acknowledged put, so a dump up to it holds them all
                System.out.println("PAUSED " + RaftStores.status(store).committedOffset());
            } else if (line.startsWith("dump ")) {
                long committed = Long.parseLong(line.substring(5).trim());
                long deadline = System.currentTimeMillis() + 120_000;
                while (RaftStores.status(store).committedOffset() < committed) {
                    if (System.currentTimeMillis() > deadline) {
                        System.out.println("DUMP-TIMEOUT " + RaftStores.status(store).committedOffset());
                        break;
                    }
                    Thread.sleep(10);
                }
                while (store.dispatchBehindBytes() > 0) {
                    Thread.sleep(5); // dispatch publishes per batch: every committed record in the queues first
                }
                dump(store, base.resolve(self + ".dump"), queues);
                System.out.println("DUMPED " + RaftStores.status(store).committedOffset());
            } else if (line.startsWith("burst ")) {
                System.out.println("BURST " + burst(store, acks, tried, nonce + "-burst",
                        Integer.parseInt(line.substring(6).trim()), queues));
            } else if (line.startsWith("probe")) {
                System.out.println("PROBED " + probe(store, base.resolve(self + ".tried"), queues));
            } else if (line.startsWith("keys ")) {
                System.out.println("KEYS " + keys(store, Path.of(line.substring(5).trim())));
            } else if (line.startsWith("stop")) {
                break;
            }
            System.out.flush();
        }
        writing = false;
        store.close();
        System.out.println("STOPPED");
        System.out.flush();
        System.exit(0);
    }

    private static volatile boolean writing = true;

    /**
     * Puts {@code count} messages at once, none waiting for another, recording them as the writers do: on a leader
     * cut off from its group they are appended though no one else will ever have them. Answers how many it put.
     */
    private static int burst(DefaultMessageStore store, OutputStream acks, OutputStream tried, String prefix,
                             int count, int queues) throws IOException {
        for (int i = 0; i < count; i++) {
            String body = prefix + "-" + i;
            synchronized (tried) {
                tried.write((body + "\n").getBytes(StandardCharsets.UTF_8));
            }
            putsUnderWay.incrementAndGet(); // a pause waits for these answers too
            store.asyncPutMessage(RaftStores.message("T", i % queues, body)).whenComplete((r, e) -> {
                try {
                    if (r != null && r.status() == PutMessageStatus.PUT_OK) {
                        synchronized (acks) {
                            acks.write((body + "\n").getBytes(StandardCharsets.UTF_8));
                        }
                    }
                } catch (IOException io) {
                    io.printStackTrace();
                } finally {
                    putsUnderWay.decrementAndGet();
                }
            });
        }
        return count;
    }
    /** Writer threads between deciding to put and recording the outcome. */
    private static final java.util.concurrent.atomic.AtomicInteger putsUnderWay =
            new java.util.concurrent.atomic.AtomicInteger();

    private static void write(DefaultMessageStore store, OutputStream acks, OutputStream tried, String prefix,
                              int queue) {
        long seq = 0;
        while (true) {
            try {
                if (!writing || !RaftStores.status(store).leaderReady()) {
                    Thread.sleep(5);
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            }
            putsUnderWay.incrementAndGet();
            try {
                if (!writing) {
                    continue; // paused between the look above and the count: the pause did not wait for this put
                }
                String body = prefix + "-" + seq++;
                synchronized (tried) {
                    tried.write((body + "\n").getBytes(StandardCharsets.UTF_8));
                }
                PutMessageResult r = store.putMessage(RaftStores.message("T", queue, body));
                if (r.status() == PutMessageStatus.PUT_OK) {
                    byte[] line = (body + "\n").getBytes(StandardCharsets.UTF_8);
                    synchronized (acks) {
                        acks.write(line);
                    }
                }
            } catch (IOException e) {
                return;
            } finally {
                putsUnderWay.decrementAndGet();
            }
        }
    }

    /**
     * A consumer on this node: follows every queue from offset 0 and records each message it reads
     * ({@code queue offset body}), so the harness can check that no node ever showed a message that is not in the
     * final log at that place (a read of bytes a later leader cut).
     */
    private static void read(DefaultMessageStore store, Path file, int queues) {
        long[] next = new long[queues];
        try (OutputStream out = new FileOutputStream(file.toFile(), true)) {
            while (true) {
                boolean any = false;
                for (int q = 0; q < queues; q++) {
                    GetMessageResult r = store.getMessage("reader", "T", q, next[q], 64, MessageFilter.ALL);
                    StringBuilder lines = new StringBuilder();
                    for (StoredMessage m : r.messages()) {
                        lines.append(q).append(' ').append(m.queueOffset()).append(' ')
                                .append(new String(m.body(), StandardCharsets.UTF_8)).append('\n');
                        next[q] = m.queueOffset() + 1;
                        any = true;
                    }
                    out.write(lines.toString().getBytes(StandardCharsets.UTF_8));
                }
                if (!any) {
                    Thread.sleep(5);
                }
            }
        } catch (Exception e) {
            // the store closed
        }
    }

    private static void dump(DefaultMessageStore store, Path file, int queues) throws IOException {
        StringBuilder out = new StringBuilder();
        for (int q = 0; q < queues; q++) {
            long max = store.getMaxOffsetInQueue("T", q);
            long offset = Math.max(0, store.getMinOffsetInQueue("T", q));
            while (offset < max) {
                GetMessageResult r = store.getMessage("dump", "T", q, offset, 256, MessageFilter.ALL);
                if (r.messages().isEmpty()) {
                    break;
                }
                for (StoredMessage m : r.messages()) {
                    out.append(q).append(' ').append(m.queueOffset()).append(' ')
                            .append(new String(m.body(), StandardCharsets.UTF_8)).append('\n');
                    offset = m.queueOffset() + 1;
                }
            }
        }
        Files.writeString(file, out.toString());
    }

    /**
     * What a long poll woken by this arrival would return: the message just before {@code maxOffset}, recorded as
     * {@code queue offset body} like the reader's lines.
     */
    private static void longPollWakes(DefaultMessageStore store, OutputStream polls, String topic, int queue,
                                      long maxOffset) {
        GetMessageResult r = store.getMessage("long-poll", topic, queue, maxOffset - 1, 1, MessageFilter.ALL);
        StringBuilder lines = new StringBuilder();
        for (StoredMessage m : r.messages()) {
            lines.append(queue).append(' ').append(m.queueOffset()).append(' ')
                    .append(new String(m.body(), StandardCharsets.UTF_8)).append('\n');
        }
        try {
            polls.write(lines.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Every message this node's queues show, and every body it tried to put looked up by key: {@code N of M}, N the
     * ones at or past the committed offset (bytes a new leader may cut: dispatched too early), M all it saw. The
     * committed offset is read after the look, so a message committed meanwhile is not counted against the node.
     */
    private static String probe(DefaultMessageStore store, Path triedFile, int queues) throws IOException {
        List<StoredMessage> seen = new ArrayList<>();
        for (int q = 0; q < queues; q++) {
            long offset = Math.max(0, store.getMinOffsetInQueue("T", q));
            while (true) {
                GetMessageResult r = store.getMessage("probe", "T", q, offset, 256, MessageFilter.ALL);
                if (r.messages().isEmpty()) {
                    break;
                }
                seen.addAll(r.messages());
                offset = r.messages().get(r.messages().size() - 1).queueOffset() + 1;
            }
        }
        for (String body : Files.readAllLines(triedFile)) {
            if (!body.isEmpty()) {
                seen.addAll(store.queryMessage("T", "k-" + body, 4, 0, Long.MAX_VALUE).messages());
            }
        }
        long committed = RaftStores.status(store).committedOffset();
        long early = seen.stream().filter(m -> m.commitLogOffset() >= committed).count();
        return early + " of " + seen.size() + " past " + committed;
    }

    /** How many of the bodies in {@code file} (one a line) this node finds by key: {@code N of M}. */
    private static String keys(DefaultMessageStore store, Path file) throws IOException {
        List<String> bodies = Files.readAllLines(file).stream().filter(b -> !b.isEmpty()).toList();
        // the index is a hash table: a lookup may also return other keys' messages, so compare the key
        long found = bodies.stream().filter(b -> store.queryMessage("T", "k-" + b, 4, 0, Long.MAX_VALUE).messages()
                .stream().anyMatch(m -> ("k-" + b).equals(m.keys()))).count();
        return found + " of " + bodies.size();
    }
}
