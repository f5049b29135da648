package dev.hangar.store.clean;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import java.util.Set;
import java.util.TreeSet;

/**
 * The retention and disk settings, read once from the configuration (RocketMQ's names in brackets). Immutable.
 *
 * @param fileReservedMillis           a CommitLog file is expired this long after its last modification
 *                                     [fileReservedTime, hours]
 * @param deleteHours                  hours of the day (0-23, local time) when expired files are deleted [deleteWhen]
 * @param diskMaxUsedPercent           past this disk use, expired files are deleted at any hour [diskMaxUsedSpaceRatio]
 * @param cleanForciblyPercent         past this, files are deleted even unexpired [diskSpaceCleanForciblyRatio]
 * @param warningPercent               past this, puts are refused (DISK_FULL) [diskSpaceWarningLevelRatio]
 * @param cleanFileForciblyEnable      allow deleting unexpired files [cleanFileForciblyEnable]
 * @param cleanIntervalMillis          period of the retention pass [cleanResourceInterval]
 * @param deleteFilesIntervalMillis    pause between two deletions [deleteCommitLogFilesInterval]
 * @param destroyIntervalForciblyMillis a file still read is unmapped anyway after this [destroyMapedFileIntervalForcibly]
 * @param redeleteHangedFileIntervalMillis period of retrying a file that could not be deleted [redeleteHangedFileInterval]
 */
public record RetentionPolicy(long fileReservedMillis, Set<Integer> deleteHours, int diskMaxUsedPercent,
                              int cleanForciblyPercent, int warningPercent, boolean cleanFileForciblyEnable,
                              long cleanIntervalMillis, int deleteFilesIntervalMillis,
                              long destroyIntervalForciblyMillis, long redeleteHangedFileIntervalMillis) {
    /** Files deleted per pass at most (RocketMQ 4.9's DELETE_FILES_BATCH_MAX). */
    public static final int MAX_FILES_PER_PASS = 10;
    /** Passes a manual clean requests (RocketMQ's manualDeleteFileSeveralTimes). */
    public static final int MANUAL_PASSES = 20;

    public RetentionPolicy {
        deleteHours = Set.copyOf(deleteHours);
    }

    public static RetentionPolicy from(StoreConfig c) {
        return new RetentionPolicy(
                c.get(StoreConfigKeys.FILE_RESERVED_TIME) * 3_600_000L,
                parseHours(c.get(StoreConfigKeys.DELETE_WHEN)),
                c.get(StoreConfigKeys.DISK_MAX_USED_SPACE_RATIO),
                c.get(StoreConfigKeys.DISK_SPACE_CLEAN_FORCIBLY_RATIO),
                c.get(StoreConfigKeys.DISK_SPACE_WARNING_LEVEL_RATIO),
                c.get(StoreConfigKeys.CLEAN_FILE_FORCIBLY_ENABLE),
                c.get(StoreConfigKeys.CLEAN_RESOURCE_INTERVAL),
                c.get(StoreConfigKeys.DELETE_COMMIT_LOG_FILES_INTERVAL),
                c.get(StoreConfigKeys.DESTROY_MAPPED_FILE_INTERVAL_FORCIBLY),
                c.get(StoreConfigKeys.REDELETE_HANGED_FILE_INTERVAL));
    }

    /** "04;16" → {4, 16}. */
    static Set<Integer> parseHours(String deleteWhen) {
        Set<Integer> hours = new TreeSet<>();
        for (String h : deleteWhen.split(";")) {
            if (!h.isBlank()) {
                hours.add(Integer.parseInt(h.trim()));
            }
        }
        return hours;
    }
}
