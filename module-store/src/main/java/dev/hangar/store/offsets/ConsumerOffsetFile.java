package dev.hangar.store.offsets;

import dev.hangar.spi.flush.DurableFiles;
import dev.hangar.spi.flush.ForceEvents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code config/consumerOffset.json} in RocketMQ 4.x's shape (what its {@code ConsumerOffsetManager} writes with
 * fastjson: tab indents, keys {@code topic@group}, queue ids as unquoted number keys), plus one field of Hangar's,
 * {@code hangarCommitLogOffset}: the CommitLog position the table covers. RocketMQ ignores the field when it reads the
 * file and drops it when it writes the file, so a file without it is RocketMQ's (or older) and is taken over as is.
 *
 * <pre>
 * {
 * 	"offsetTable":{
 * 		"TopicTest@GroupA":{0:250,1:251
 * 		}
 * 	},
 * 	"hangarCommitLogOffset":4096
 * }
 * </pre>
 *
 * Written as RocketMQ's {@code MixAll.string2File} does (temp file, previous content to {@code .bak}, rename), with
 * forces: the temp file and the {@code .bak} before the rename, the directory after it, so a power cut leaves the
 * old or the new file whole. Reading falls back to {@code .bak} when the file is missing or broken.
 */
public final class ConsumerOffsetFile {
    private static final Pattern GROUP_ENTRY = Pattern.compile("\"([^\"]*)\"\\s*:\\s*\\{([^{}]*)\\}");
    private static final Pattern QUEUE_ENTRY = Pattern.compile("\"?(-?\\d+)\"?\\s*:\\s*(-?\\d+)");
    private static final Pattern COVERED = Pattern.compile("\"hangarCommitLogOffset\"\\s*:\\s*(\\d+)");
    private static final String COVERED_FIELD = "hangarCommitLogOffset";

    /** What a file holds: offsets by {@code topic@group} key, and the position it covers when Hangar wrote it. */
    public record Content(Map<ConsumerOffsetTable.Key, Long> offsets, OptionalLong coveredPosition, Path source) {
    }

    private final Path file;

    public ConsumerOffsetFile(Path file) {
        this.file = file;
    }

    public Path path() {
        return file;
    }

    private Path bak() {
        return file.resolveSibling(file.getFileName() + ".bak");
    }

    /**
     * The file's content, or its {@code .bak}'s when the file is missing or broken; null when neither exists.
     *
     * @throws IllegalStateException when one exists and neither can be read (RocketMQ refuses to start then too)
     */
    public Content read() {
        List<String> problems = new ArrayList<>();
        for (Path p : List.of(file, bak())) {
            if (!Files.exists(p)) {
                continue;
            }
            try {
                return parse(Files.readString(p, StandardCharsets.UTF_8), p);
            } catch (IOException | IllegalArgumentException e) {
                problems.add(p + ": " + e.getMessage());
            }
        }
        if (problems.isEmpty()) {
            return null;
        }
        throw new IllegalStateException("cannot read the consumer offsets: " + String.join("; ", problems)
                + " (repair the file, or remove both files to start with no committed offsets)");
    }

    static Content parse(String text, Path source) {
        String t = text.trim();
        Map<ConsumerOffsetTable.Key, Long> out = new LinkedHashMap<>();
        if (t.isEmpty() || t.equals("null") || t.equals("[]")) {
            return new Content(out, OptionalLong.empty(), source);
        }
        if (!t.startsWith("{") || !t.endsWith("}") || !balanced(t)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        int table = t.indexOf("\"offsetTable\"");
        if (table >= 0) {
            Matcher g = GROUP_ENTRY.matcher(t);
            g.region(table + "\"offsetTable\"".length(), t.length());
            while (g.find()) {
                String key = g.group(1);
                int at = key.indexOf('@');
                if (at <= 0 || at == key.length() - 1) {
                    throw new IllegalArgumentException("the key \"" + key + "\" is not topic@group");
                }
                Matcher q = QUEUE_ENTRY.matcher(g.group(2));
                while (q.find()) {
                    out.put(new ConsumerOffsetTable.Key(key.substring(at + 1), key.substring(0, at),
                            Integer.parseInt(q.group(1))), Long.parseLong(q.group(2)));
                }
            }
        }
        Matcher c = COVERED.matcher(t);
        return new Content(out, c.find() ? OptionalLong.of(Long.parseLong(c.group(1))) : OptionalLong.empty(), source);
    }

    private static boolean balanced(String t) {
        int depth = 0;
        boolean quoted = false;
        for (int i = 0; i < t.length(); i++) {
            char ch = t.charAt(i);
            if (ch == '"') {
                quoted = !quoted;
            } else if (!quoted && ch == '{') {
                depth++;
            } else if (!quoted && ch == '}' && --depth < 0) {
                return false;
            }
        }
        return depth == 0 && !quoted;
    }

    /** The text RocketMQ's fastjson would write for {@code offsets}, with Hangar's covered position added. */
    static String format(Map<ConsumerOffsetTable.Key, Long> offsets, long coveredPosition) {
        Map<String, Map<Integer, Long>> byKey = new TreeMap<>();
        offsets.forEach((k, v) -> byKey.computeIfAbsent(k.topic() + "@" + k.group(), x -> new TreeMap<>())
                .put(k.queueId(), v));
        StringBuilder sb = new StringBuilder("{\n\t\"offsetTable\":{");
        boolean firstGroup = true;
        for (Map.Entry<String, Map<Integer, Long>> e : byKey.entrySet()) {
            sb.append(firstGroup ? "\n" : ",\n").append("\t\t\"").append(e.getKey()).append("\":{");
            firstGroup = false;
            boolean firstQueue = true;
            for (Map.Entry<Integer, Long> q : e.getValue().entrySet()) {
                sb.append(firstQueue ? "" : ",").append(q.getKey()).append(':').append(q.getValue());
                firstQueue = false;
            }
            sb.append("\n\t\t}");
        }
        sb.append(byKey.isEmpty() ? "}" : "\n\t}");
        sb.append(",\n\t\"").append(COVERED_FIELD).append("\":").append(coveredPosition).append("\n}");
        return sb.toString();
    }

    /** Writes the table durably (see the class comment); returns once the new file would survive a power cut. */
    public void write(Map<ConsumerOffsetTable.Key, Long> offsets, long coveredPosition) {
        String text = format(offsets, coveredPosition);
        try {
            List<Path> created = DurableFiles.createDirectories(file.getParent());
            DurableFiles.forceDirectories(DurableFiles.parentsOf(List.of(), created));
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            force(tmp, StandardOpenOption.WRITE);
            Path bak = null;
            if (Files.exists(file)) {
                bak = bak();
                Files.copy(file, bak, StandardCopyOption.REPLACE_EXISTING);
                force(bak, StandardOpenOption.WRITE);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            // the rename (and a new .bak's name) is durable only once the directory is: without this a power cut
            // may bring back the old file
            DurableFiles.forceDirectory(file.getParent());
            if (bak != null) {
                ForceEvents.fileForced(bak);
            }
            ForceEvents.fileForced(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void force(Path path, StandardOpenOption mode) throws IOException {
        try (FileChannel channel = FileChannel.open(path, mode)) {
            channel.force(true);
        }
    }
}
