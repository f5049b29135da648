package dev.hangar.spi.mapped;

/** What a {@link MappedFileQueue} is for; the mapped-file variant decides per role how to build its files. */
public enum QueueRole {
    /** The CommitLog: pre-allocated, warmed when configured, with a pooled write buffer for transient-pool. */
    COMMIT_LOG,
    /** A ConsumeQueue or similar small fixed-unit log: plain mmap, created on demand. */
    CONSUME_QUEUE,
    /** Anything a plugin keeps on mapped files. */
    OTHER
}
