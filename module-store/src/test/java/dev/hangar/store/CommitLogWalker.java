package dev.hangar.store;

import dev.hangar.spi.message.StoredMessage;
import dev.hangar.store.format.RecordDecoder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads a commit-log directory straight from the files, independent of the engine, for assertions. */
final class CommitLogWalker {
    record Walk(List<StoredMessage> messages, List<Long> blanks, List<String> fileNames) {
    }

    private CommitLogWalker() {
    }

    /** Every valid record with a checked CRC; fails on an invalid one before the end of the data. */
    static Walk walk(Path commitLogDir) throws IOException {
        List<StoredMessage> messages = new ArrayList<>();
        List<Long> blanks = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(commitLogDir)) {
            files = s.sorted().toList();
        }
        for (Path f : files) {
            names.add(f.getFileName().toString());
            long from = Long.parseLong(f.getFileName().toString());
            ByteBuffer buf = ByteBuffer.wrap(Files.readAllBytes(f));
            int pos = 0;
            while (pos < buf.capacity()) {
                RecordDecoder.Check c = RecordDecoder.check(buf, pos, buf.capacity() - pos, true);
                if (c.kind() == RecordDecoder.Kind.MESSAGE) {
                    StoredMessage m = RecordDecoder.decode(buf, pos);
                    if (m.commitLogOffset() != from + pos) {
                        throw new AssertionError("record at " + (from + pos) + " says it is at " + m.commitLogOffset());
                    }
                    messages.add(m);
                    pos += c.size();
                } else if (c.kind() == RecordDecoder.Kind.BLANK) {
                    if (pos + c.size() != buf.capacity()) {
                        throw new AssertionError("BLANK at " + (from + pos) + " does not reach the end of the file");
                    }
                    blanks.add(from + pos);
                    break;
                } else if (c.kind() == RecordDecoder.Kind.END) {
                    break;
                } else {
                    throw new AssertionError("invalid record at " + (from + pos) + ": " + c.reason());
                }
            }
        }
        return new Walk(messages, blanks, names);
    }
}
