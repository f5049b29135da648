package dev.hangar.bench;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * One node of a three-node Raft group, opened inside a bench child JVM ({@link RaftNode}): the store's put API,
 * whether this node is the group's leader, and where its logs lie on disk.
 */
interface RaftNodeStore extends AutoCloseable {

    /** True while this node's Raft role is leader (it may still refuse puts while it readies itself). */
    boolean leader();

    /** True on a leader that takes puts. */
    boolean ready();

    /** Puts message {@code n} (1 KiB body); completes with the put's encoded bytes, or -1 when not PUT_OK. */
    CompletableFuture<Integer> put(int n);

    /** One past this node's last CommitLog byte. */
    long maxOffset();

    /** The directory holding the messages' bytes (RocketMQ DLedger: its entry data files, which are its CommitLog). */
    Path messageLogDir();

    /** The directory of the Raft log's own files beside the message bytes (DLedger: its entry index). */
    Path raftLogDir();

    @Override
    void close();
}
