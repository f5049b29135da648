package dev.hangar.compat.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Compares two store directories written from the same dataset by different engines and names every
 * difference: for the CommitLog, each record's fields pairwise (record n of one engine against record n of the
 * other) and each BLANK's position and length; for ConsumeQueues, each unit; for index files, header fields and
 * entries. Values that must differ are left out: STORETIMESTAMP, the deliver-time tags code of schedule-topic
 * units, and index timestamps. Differences are tallied per field: a count and the first examples, so one
 * shifted byte early on does not bury the report.
 */
public final class LayoutDiff {
    private static final int CQ_UNIT = 20;
    private static final int INDEX_HEADER = 40;
    private static final int INDEX_ENTRY = 20;
    private static final int EXAMPLES = 3;
    private final Path a;
    private final Path b;
    private final String an;
    private final String bn;
    private final Map<String, List<String>> tally = new LinkedHashMap<>();
    private final Map<String, Integer> counts = new LinkedHashMap<>();

    public LayoutDiff(Path a, String aName, Path b, String bName) {
        this.a = a;
        this.b = b;
        this.an = aName;
        this.bn = bName;
    }

    /** One line per differing field: how often, and the first examples. */
    public List<String> differences() {
        List<String> out = new ArrayList<>();
        tally.forEach((what, examples) -> out.add(what + " differs " + counts.get(what) + "x; e.g. "
                + String.join("; ", examples)));
        return out;
    }

    private void note(String what, String example) {
        counts.merge(what, 1, Integer::sum);
        List<String> examples = tally.computeIfAbsent(what, k -> new ArrayList<>());
        if (examples.size() < EXAMPLES) {
            examples.add(example);
        }
    }

    /** CommitLog: the same records and BLANKs at the same offsets with the same fields (store time aside). */
    public LayoutDiff commitLog() {
        List<CommitLogFiles.Entry> xs = CommitLogFiles.walk(a);
        List<CommitLogFiles.Entry> ys = CommitLogFiles.walk(b);
        List<CommitLogFiles.Entry> xr = xs.stream().filter(e -> !e.blank()).toList();
        List<CommitLogFiles.Entry> yr = ys.stream().filter(e -> !e.blank()).toList();
        List<CommitLogFiles.Entry> xb = xs.stream().filter(CommitLogFiles.Entry::blank).toList();
        List<CommitLogFiles.Entry> yb = ys.stream().filter(CommitLogFiles.Entry::blank).toList();
        if (xr.size() != yr.size()) {
            note("commitlog record count", an + "=" + xr.size() + " " + bn + "=" + yr.size());
        }
        if (xb.size() != yb.size()) {
            note("commitlog BLANK count", an + "=" + xb.size() + " " + bn + "=" + yb.size());
        }
        FileCache xf = new FileCache(a);
        FileCache yf = new FileCache(b);
        for (int i = 0; i < Math.min(xr.size(), yr.size()); i++) {
            CommitLogFiles.Entry x = xr.get(i);
            CommitLogFiles.Entry y = yr.get(i);
            String where = "record #" + i + " (" + an + " offset " + x.offset() + ", " + bn + " offset " + y.offset() + ")";
            if (x.offset() != y.offset()) {
                note("commitlog record offset", where);
            }
            Map<String, String> fx = RecordFields.decode(xf.buffer(x.offset()), xf.position(x.offset()));
            Map<String, String> fy = RecordFields.decode(yf.buffer(y.offset()), yf.position(y.offset()));
            for (String field : fx.keySet()) {
                if (!field.equals("STORETIMESTAMP") && !Objects.equals(fx.get(field), fy.get(field))) {
                    note("commitlog record field " + field, where + ": " + an + "=" + fx.get(field) + " " + bn + "="
                            + fy.get(field));
                }
            }
        }
        for (int i = 0; i < Math.min(xb.size(), yb.size()); i++) {
            CommitLogFiles.Entry x = xb.get(i);
            CommitLogFiles.Entry y = yb.get(i);
            if (x.offset() != y.offset() || x.size() != y.size()) {
                note("commitlog BLANK (offset, length)", "BLANK #" + i + ": " + an + "=(" + x.offset() + ", "
                        + x.size() + ") " + bn + "=(" + y.offset() + ", " + y.size() + ")");
            }
        }
        sameNames("commitlog");
        return this;
    }

    /** ConsumeQueue files: same paths; same units but for the schedule topic's deliver-time tags codes. */
    public LayoutDiff consumeQueues() {
        for (String rel : sameNames("consumequeue")) {
            byte[] x = CommitLogFiles.read(a.resolve("consumequeue").resolve(rel));
            byte[] y = CommitLogFiles.read(b.resolve("consumequeue").resolve(rel));
            if (x.length != y.length) {
                note("consumequeue file size", rel + ": " + an + "=" + x.length + " " + bn + "=" + y.length);
                continue;
            }
            boolean schedule = rel.startsWith(MessageSpec.SCHEDULE_TOPIC + "/");
            ByteBuffer bx = ByteBuffer.wrap(x);
            ByteBuffer by = ByteBuffer.wrap(y);
            for (int u = 0; u + CQ_UNIT <= x.length; u += CQ_UNIT) {
                String where = "consumequeue/" + rel + " unit " + u / CQ_UNIT;
                compare("consumequeue unit commitLogOffset", where, bx.getLong(u), by.getLong(u));
                compare("consumequeue unit size", where, bx.getInt(u + 8), by.getInt(u + 8));
                if (!schedule) {
                    compare("consumequeue unit tagsCode", where, bx.getLong(u + 12), by.getLong(u + 12));
                }
            }
        }
        return this;
    }

    /** Index files, paired in name order (names are creation times): same header counts and offsets, same entries. */
    public LayoutDiff indexes() {
        List<Path> xs = list(a.resolve("index"));
        List<Path> ys = list(b.resolve("index"));
        if (xs.size() != ys.size()) {
            note("index file count", an + "=" + xs.size() + " " + bn + "=" + ys.size());
        }
        for (int i = 0; i < Math.min(xs.size(), ys.size()); i++) {
            ByteBuffer x = ByteBuffer.wrap(CommitLogFiles.read(xs.get(i)));
            ByteBuffer y = ByteBuffer.wrap(CommitLogFiles.read(ys.get(i)));
            String where = "index file #" + i;
            if (x.capacity() != y.capacity()) {
                note("index file size", where + ": " + an + "=" + x.capacity() + " " + bn + "=" + y.capacity());
                continue;
            }
            compare("index header beginPhyOffset", where, x.getLong(16), y.getLong(16));
            compare("index header endPhyOffset", where, x.getLong(24), y.getLong(24));
            compare("index header hashSlotCount", where, x.getInt(32), y.getInt(32));
            compare("index header indexCount", where, x.getInt(36), y.getInt(36));
            int slotsEnd = INDEX_HEADER + StoreGeometry.HASH_SLOTS * 4;
            for (int s = INDEX_HEADER; s < slotsEnd; s += 4) {
                compare("index slot", where + " slot " + (s - INDEX_HEADER) / 4, x.getInt(s), y.getInt(s));
            }
            for (int e = slotsEnd; e + INDEX_ENTRY <= x.capacity(); e += INDEX_ENTRY) {
                String entry = where + " entry " + (e - slotsEnd) / INDEX_ENTRY;
                compare("index entry keyHash", entry, x.getInt(e), y.getInt(e));
                compare("index entry phyOffset", entry, x.getLong(e + 4), y.getLong(e + 4));
                compare("index entry prevIndex", entry, x.getInt(e + 16), y.getInt(e + 16));
            }
        }
        return this;
    }

    private void compare(String what, String where, long x, long y) {
        if (x != y) {
            note(what, where + ": " + an + "=" + x + " " + bn + "=" + y);
        }
    }

    private Set<String> sameNames(String sub) {
        Set<String> x = relativeFiles(a.resolve(sub));
        Set<String> y = relativeFiles(b.resolve(sub));
        for (String n : x) {
            if (!y.contains(n)) {
                note(sub + " file only in " + an, n);
            }
        }
        for (String n : y) {
            if (!x.contains(n)) {
                note(sub + " file only in " + bn, n);
            }
        }
        x.retainAll(y);
        return x;
    }

    /** Relative paths of the regular files under {@code dir}. */
    public static Set<String> relativeFiles(Path dir) {
        Set<String> names = new TreeSet<>();
        if (!Files.isDirectory(dir)) {
            return names;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(Files::isRegularFile).forEach(p -> names.add(dir.relativize(p).toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    private static List<Path> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The CommitLog files of one directory, read once, addressed by commit-log offset. */
    private static final class FileCache {
        private final Map<Long, ByteBuffer> files = new LinkedHashMap<>();

        FileCache(Path root) {
            for (Path f : CommitLogFiles.files(root)) {
                files.put(Long.parseLong(f.getFileName().toString()), ByteBuffer.wrap(CommitLogFiles.read(f)));
            }
        }

        ByteBuffer buffer(long offset) {
            return files.get(offset - offset % StoreGeometry.COMMIT_LOG_FILE_SIZE);
        }

        int position(long offset) {
            return (int) (offset % StoreGeometry.COMMIT_LOG_FILE_SIZE);
        }
    }
}
