package dev.hangar.store.verify;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.spi.dispatch.CommitLogDispatcherProvider;
import dev.hangar.store.assembly.ProviderRegistry;
import dev.hangar.store.format.CheckpointFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Checks a store directory offline and read-only: every CommitLog record (magic, CRC, lengths, offsets, BLANK
 * records, file names and sizes), every ConsumeQueue unit against the record it points at, the index file headers
 * and entries, and the checkpoint. Works on directories written by Hangar or by RocketMQ 4.x (same formats).
 *
 * <p>It takes no lock, maps nothing and opens every file for reading only, so it may run next to a running store
 * (whose newest data may then look torn) and never changes a byte. Sizes come from the {@link StoreConfig}: it must
 * describe the store as it was written ({@code mappedFileSizeCommitLog}, {@code mappedFileSizeConsumeQueue},
 * {@code maxHashSlotNum}, {@code maxIndexNum}).
 *
 * <p>Thread-safety: stateless; each call is independent.
 */
public final class StoreVerifier {
    static final String ABORT_FILE = "abort";
    static final String CHECKPOINT_FILE = "checkpoint";

    private StoreVerifier() {
    }

    /**
     * Verifies the store directory {@code root} as configured by {@code config}; the dispatchers' files are checked
     * by every dispatcher provider found on the module path.
     */
    public static VerifyReport verify(Path root, StoreConfig config) {
        return verify(root, config, dispatchersFound());
    }

    /**
     * Verifies the store directory {@code root}; {@code dispatchers} check their own files, in the order given.
     */
    public static VerifyReport verify(Path root, StoreConfig config, List<CommitLogDispatcherProvider> dispatchers) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(config, "config");
        ReportCollector report = new ReportCollector(root);
        if (!Files.isDirectory(root)) {
            report.error(root, -1, "no such directory: " + root.toAbsolutePath());
            return report.build(-1, 0);
        }
        Path commitLogDir = root.resolve("commitlog");
        Path checkpoint = root.resolve(CHECKPOINT_FILE);
        if (!Files.isDirectory(commitLogDir) && !Files.exists(checkpoint)) {
            report.error(root, -1, "not a store directory: it has neither commitlog/ nor a checkpoint");
            return report.build(-1, 0);
        }
        boolean unclean = Files.exists(root.resolve(ABORT_FILE));
        if (unclean) {
            report.info(root.resolve(ABORT_FILE), -1, "the last shutdown was not clean (abort file present); "
                    + "recovery from the checkpoint will run at the next start");
        }
        CommitLogExtent extent;
        try {
            extent = new CommitLogVerifier(commitLogDir, config.commitLogFileSize(),
                    config.get(StoreConfigKeys.MAX_MESSAGE_SIZE), unclean, report).verify();
        } catch (IOException e) {
            report.error(commitLogDir, -1, "cannot read the commit log: " + e);
            return report.build(-1, 0);
        }
        checkCheckpoint(checkpoint, extent, report);
        // each dispatcher checks its own files (ConsumeQueues, index files, a plugin's), in name order
        try (DispatcherVerificationContext context = new DispatcherVerificationContext(root, config, extent, report)) {
            for (CommitLogDispatcherProvider provider : dispatchers) {
                provider.verify(context);
            }
        }
        return report.build(extent.minOffset(), extent.maxOffset());
    }

    /** Every dispatcher provider on the module path, by name. */
    private static List<CommitLogDispatcherProvider> dispatchersFound() {
        return dispatchersOf(ProviderRegistry.discover(null));
    }

    /** The dispatcher providers of {@code registry} (built-ins and plugins alike), by name: who checks what. */
    public static List<CommitLogDispatcherProvider> dispatchersOf(ProviderRegistry registry) {
        return registry.providers(CommitLogDispatcherProvider.class).stream()
                .sorted(Comparator.comparing(CommitLogDispatcherProvider::name)).toList();
    }

    /** The checkpoint must hold its three longs (RocketMQ writes a whole 4 KiB page). */
    private static void checkCheckpoint(Path file, CommitLogExtent extent, ReportCollector report) {
        boolean hasData = extent.maxOffset() > Math.max(0, extent.minOffset());
        if (!Files.exists(file)) {
            if (hasData) {
                report.warning(file, -1, "no checkpoint: recovery after a crash would rescan the whole commit log");
            }
            return;
        }
        report.count(VerifyReport.FILES, 1);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < CheckpointFormat.USED_LENGTH) {
                report.error(file, -1, "the checkpoint is " + size + " bytes; it needs at least "
                        + CheckpointFormat.USED_LENGTH + " (" + CheckpointFormat.FILE_SIZE + " as written)");
                return;
            }
            ByteBuffer b = ByteBuffer.allocate(CheckpointFormat.USED_LENGTH);
            while (b.hasRemaining() && ch.read(b, b.position()) >= 0) {
                // positional reads until the three longs are in
            }
            long[] stamps = {b.getLong(CheckpointFormat.PHYSIC_MSG_TIMESTAMP_OFFSET),
                    b.getLong(CheckpointFormat.LOGICS_MSG_TIMESTAMP_OFFSET),
                    b.getLong(CheckpointFormat.INDEX_MSG_TIMESTAMP_OFFSET)};
            String[] names = {"physicMsgTimestamp", "logicsMsgTimestamp", "indexMsgTimestamp"};
            long tomorrow = System.currentTimeMillis() + 24 * 3600 * 1000L;
            for (int i = 0; i < stamps.length; i++) {
                if (stamps[i] < 0 || stamps[i] > tomorrow) {
                    report.warning(file, i * 8L, names[i] + " " + stamps[i] + " is not a plausible time: crash recovery "
                            + "would start from the wrong file");
                }
            }
        } catch (IOException e) {
            report.error(file, -1, "cannot read the checkpoint: " + e);
        }
    }
}
