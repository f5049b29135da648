package dev.hangar.store.schedule;

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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code config/delayOffset.json}: how far each delay level has been delivered, in RocketMQ 4.9's shape
 * {@code {"offsetTable":{1:23,2:0}}}. Written to a temp file and renamed, so a crash leaves the old or the new
 * version, never half of one; the temp file is forced before the rename and the directory after it, so a power cut
 * keeps the new version once {@link #write} returned.
 */
public final class DelayOffsetFile {
    private static final Pattern ENTRY = Pattern.compile("\"?(\\d+)\"?\\s*:\\s*(\\d+)");

    private final Path file;

    public DelayOffsetFile(Path file) {
        this.file = file;
    }

    public Map<Integer, Long> read() {
        Map<Integer, Long> out = new TreeMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            int table = text.indexOf("offsetTable");
            Matcher m = ENTRY.matcher(table < 0 ? text : text.substring(table));
            while (m.find()) {
                out.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static void force(Path path, StandardOpenOption mode) throws IOException {
        try (FileChannel channel = FileChannel.open(path, mode)) {
            channel.force(true);
        }
    }

    public void write(Map<Integer, Long> offsets) {
        StringBuilder sb = new StringBuilder("{\"offsetTable\":{");
        boolean first = true;
        for (Map.Entry<Integer, Long> e : new TreeMap<>(offsets).entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append(e.getKey()).append(':').append(e.getValue());
        }
        sb.append("}}");
        try {
            List<Path> created = DurableFiles.createDirectories(file.getParent());
            DurableFiles.forceDirectories(DurableFiles.parentsOf(List.of(), created));
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, sb.toString(), StandardCharsets.UTF_8);
            force(tmp, StandardOpenOption.WRITE);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            // the rename is durable only once the directory is: without this a power cut may bring back the old file
            DurableFiles.forceDirectory(file.getParent());
            ForceEvents.fileForced(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
