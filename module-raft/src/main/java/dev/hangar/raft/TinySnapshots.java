package dev.hangar.raft;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;

/**
 * The provider's snapshots: the CommitLog is the state, so a snapshot is only the offset up to which it is committed
 * and forced, with the entry that got it there. A node far behind does not get a snapshot copied: it reads entries.
 *
 * <pre>
 * file snapshot.TERM_INDEX in Ratis' state-machine directory, 16 bytes, big-endian:
 *  0                        8          12         16
 *  +------------------------+----------+----------+
 *  | committed offset (8)   | magic (4)| crc32c(4)|   crc over the first 12 bytes
 *  +------------------------+----------+----------+
 * </pre>
 * Written to a temporary name, forced, then renamed and the directory forced, so a power cut leaves the old one or the
 * new one. The latest is also read before Ratis starts ({@link #latest()} from {@code smDir}), so the engine's
 * recovery dispatches no further than what was committed.
 */
final class TinySnapshots {
    private static final Pattern NAME = Pattern.compile("snapshot\\.(\\d+)_(\\d+)");
    private static final int MAGIC = 0x48524631; // "HRF1"
    private static final int SIZE = 16;

    record Snapshot(long term, long index, long committedOffset, Path file) {
    }

    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private volatile Path smDir;
    private volatile Snapshot latest;

    /** @param smDir where Ratis will keep this group's state-machine files ({@code <raft.dir>/<group uuid>/sm}) */
    TinySnapshots(Path smDir) {
        this.smDir = smDir;
        this.latest = readLatest(smDir);
    }

    void init(RaftStorage raftStorage) throws IOException {
        storage.init(raftStorage);
        Path dir = raftStorage.getStorageDir().getStateMachineDir().toPath();
        if (!dir.equals(smDir)) {
            smDir = dir;
            latest = readLatest(dir);
        }
    }

    StateMachineStorage storage() {
        return storage;
    }

    Snapshot latest() {
        return latest;
    }

    SnapshotInfo latestInfo() {
        Snapshot s = latest;
        return s == null ? null : new SingleFileSnapshotInfo(new FileInfo(s.file(), null), s.term(), s.index());
    }

    /**
     * Saves a snapshot unless one at this entry or a later one is saved already (Ratis' own snapshots and {@link
     * CommittedOffsetSaver}'s come from different threads: the newest stays).
     */
    synchronized void save(long term, long index, long committedOffset) throws IOException {
        Snapshot current = latest;
        if (current != null && index <= current.index()) {
            return;
        }
        Files.createDirectories(smDir);
        Path file = smDir.resolve("snapshot." + term + "_" + index);
        Path tmp = smDir.resolve(file.getFileName() + ".tmp");
        ByteBuffer b = ByteBuffer.allocate(SIZE).putLong(committedOffset).putInt(MAGIC);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, 12);
        b.putInt((int) crc.getValue()).flip();
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel dir = FileChannel.open(smDir, StandardOpenOption.READ)) {
            dir.force(true);
        }
        Snapshot old = latest;
        latest = new Snapshot(term, index, committedOffset, file);
        if (old != null && !old.file().equals(file)) {
            Files.deleteIfExists(old.file());
        }
    }

    /** The newest valid snapshot in {@code dir}, or null; damaged ones are skipped. */
    static Snapshot readLatest(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) {
            return null;
        }
        Snapshot best = null;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Matcher m = NAME.matcher(f.getFileName().toString());
                if (!m.matches()) {
                    continue;
                }
                Snapshot s = read(f, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
                if (s != null && (best == null || s.index() > best.index())) {
                    best = s;
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot list the Raft snapshots in " + dir, e);
        }
        return best;
    }

    private static Snapshot read(Path f, long term, long index) throws IOException {
        byte[] bytes = Files.readAllBytes(f);
        if (bytes.length != SIZE) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        long offset = b.getLong();
        int magic = b.getInt();
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, 12);
        return magic == MAGIC && b.getInt() == (int) crc.getValue() ? new Snapshot(term, index, offset, f) : null;
    }
}
