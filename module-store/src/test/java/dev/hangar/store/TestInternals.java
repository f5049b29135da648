package dev.hangar.store;

import dev.hangar.store.clean.RetentionService;
import dev.hangar.store.commitlog.CommitLog;
import dev.hangar.store.dispatch.DispatcherChain;
import dev.hangar.store.reput.PluginDispatch;
import dev.hangar.store.reput.ReputMessageService;
import dev.hangar.store.service.RunningFlags;
import dev.hangar.store.service.StoreStats;
import java.nio.file.Path;

/**
 * The running parts of a started store, for this module's tests only: {@link DefaultMessageStore} keeps them
 * package-private so the engine's API stays what {@code module-info.java} exports.
 */
public final class TestInternals {
    private TestInternals() {
    }

    public static CommitLog commitLog(DefaultMessageStore store) {
        return store.runtime().commitLog();
    }

    public static RetentionService retention(DefaultMessageStore store) {
        return store.runtime().retention();
    }

    public static ReputMessageService reput(DefaultMessageStore store) {
        return store.runtime().reput();
    }

    public static PluginDispatch plugins(DefaultMessageStore store) {
        return store.runtime().plugins();
    }

    public static DispatcherChain dispatchers(DefaultMessageStore store) {
        return store.runtime().dispatchers();
    }

    public static Path root(DefaultMessageStore store) {
        return store.runtime().root();
    }

    public static RunningFlags runningFlags(DefaultMessageStore store) {
        return store.runningFlags();
    }

    public static dev.hangar.store.recovery.RecoveryReport recoveryReport(DefaultMessageStore store) {
        return store.runtime().recoveryReport();
    }

    public static StoreStats stats(DefaultMessageStore store) {
        return store.stats();
    }
}
