package dev.hangar.store.verify;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.dispatch.DispatcherVerification;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * What each dispatcher's {@code verify} hook gets: the findings go to the one report, the CommitLog is the extent
 * {@link CommitLogVerifier} found, records are read with one shared {@link CommitLogRecordReader}.
 *
 * <p>Not thread-safe: one verification.
 */
final class DispatcherVerificationContext implements DispatcherVerification, AutoCloseable {
    private final Path root;
    private final StoreConfig config;
    private final CommitLogExtent extent;
    private final ReportCollector report;
    private final CommitLogRecordReader records;

    DispatcherVerificationContext(Path root, StoreConfig config, CommitLogExtent extent, ReportCollector report) {
        this.root = root;
        this.config = config;
        this.extent = extent;
        this.report = report;
        this.records = new CommitLogRecordReader(extent);
    }

    @Override
    public Path storeRoot() {
        return root;
    }

    @Override
    public StoreConfig config() {
        return config;
    }

    @Override
    public void error(Path file, long offset, String message) {
        report.error(file, offset, message);
    }

    @Override
    public void warning(Path file, long offset, String message) {
        report.warning(file, offset, message);
    }

    @Override
    public void info(Path file, long offset, String message) {
        report.info(file, offset, message);
    }

    @Override
    public void count(String name, long delta) {
        report.count(name, delta);
    }

    @Override
    public long commitLogMinOffset() {
        return extent.minOffset();
    }

    @Override
    public long commitLogMaxOffset() {
        return extent.maxOffset();
    }

    @Override
    public long validEndOfFileHolding(long offset) {
        return extent.validEndOfFileHolding(offset);
    }

    @Override
    public RecordHeader record(long offset) throws IOException {
        return records.read(offset);
    }

    @Override
    public TreeMap<Long, Path> numberedFiles(Path dir, int digits) throws IOException {
        return NumberedFiles.list(dir, digits, report);
    }

    @Override
    public void checkContiguous(Map<Long, Path> files, long fileSize, String what) {
        NumberedFiles.checkContiguous(files, fileSize, what, report);
    }

    @Override
    public ReadWindow window(Path file, int capacity) throws IOException {
        return FileWindow.open(file, capacity);
    }

    @Override
    public void close() {
        records.close();
    }
}
