package dev.hangar.store;

import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.store.clean.DiskSpaceMonitor;

/**
 * What the Raft tests need of a running store beyond its API: its disk monitor (to simulate a full disk with a probe,
 * as module-store's DiskFullTest does) and its replication service. The store keeps its running parts
 * package-private; these tests run on the class path, so a class of theirs in this package reaches them (as
 * module-store's own TestInternals does), and the engine's API stays as it is.
 */
public final class RaftTestAccess {
    private RaftTestAccess() {
    }

    public static DiskSpaceMonitor diskMonitor(DefaultMessageStore store) {
        return store.runtime().retention().diskMonitor();
    }

    public static ReplicationService replication(DefaultMessageStore store) {
        return store.runtime().replication();
    }

    /** How many times the store's CommitLog was cut back (ReplicatedLog.cuts). */
    public static long commitLogCuts(DefaultMessageStore store) {
        return store.runtime().commitLog().cuts();
    }
}
