package dev.hangar.mmap.file;

import dev.hangar.mmap.nativeio.NativeMemory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sparse {@code mmap} file (see {@link FileSpace#SPARSE}) that is mapped only while a {@link MappingBudget}
 * allows: it maps itself on the first {@link #hold()}, and the budget unmaps it ("parks" it) when it is idle and
 * other files need the mapping. Built for ConsumeQueue files, of which a store may have hundreds of thousands.
 *
 * <p>Every use of the mapping in {@link DefaultMappedFile} happens between {@link #hold()} and
 * {@link #release()}. This class takes references under its monitor and parks only under that monitor when its
 * own reference is the only one, so a mapping is never unmapped under a user. Dirty pages survive the unmap in
 * the page cache; a later flush maps the file again and forces them.
 */
public final class OnDemandMappedFile extends DefaultMappedFile {
    private static final Logger LOG = LoggerFactory.getLogger(OnDemandMappedFile.class);

    /** What {@link #parkIfIdle()} did. */
    enum Park { PARKED, IN_USE, NOT_MAPPED }

    private final MappingBudget budget;
    private volatile boolean recentlyUsed;
    private boolean everMapped;

    /** Opens (creating sparse when missing) {@code directory/<20-digit fileFromOffset>} without mapping it yet. */
    public OnDemandMappedFile(Path directory, long fileFromOffset, int fileSize, NativeMemory nativeMemory,
                              MappingBudget budget) throws IOException {
        super(directory, fileFromOffset, fileSize, nativeMemory, false, FileSpace.SPARSE, false);
        this.budget = Objects.requireNonNull(budget, "budget");
    }

    /** Takes a reference, mapping the file first when it is parked; false when shut down or it cannot be mapped. */
    @Override
    public boolean hold() {
        boolean again;
        synchronized (this) {
            if (!super.hold()) {
                return false;
            }
            if (!recentlyUsed) {
                recentlyUsed = true;
            }
            if (isMapped()) {
                return true;
            }
            try {
                mapNow();
            } catch (IOException e) {
                LOG.error("could not map {} again: {}", path(), e.getMessage());
                super.release();
                return false;
            }
            again = everMapped;
            everMapped = true;
        }
        budget.onMapped(this, again);
        return true;
    }

    /** Clears and returns the used-since-last-look bit (the clock's second chance). */
    boolean takeRecentlyUsed() {
        if (recentlyUsed) {
            recentlyUsed = false;
            return true;
        }
        return false;
    }

    /** Unmaps the file when nobody but itself holds a reference. */
    synchronized Park parkIfIdle() {
        if (!isAvailable() || !isMapped()) {
            return Park.NOT_MAPPED;
        }
        if (refCount() != 1) {
            return Park.IN_USE;
        }
        unmapNow();
        return Park.PARKED;
    }

    /** True while mapped (for tests and diagnostics). */
    public boolean mapped() {
        return isMapped();
    }

    @Override
    protected boolean cleanup(long currentRef) {
        boolean wasMapped = isMapped();
        boolean freed = super.cleanup(currentRef);
        if (wasMapped && !isMapped()) {
            budget.onClosed(this);
        }
        return freed;
    }
}
