package dev.hangar.launcher.command;

import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.store.DefaultMessageStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code clean}: manual retention. Opens the store and runs a retention pass now, whatever the hour
 * ({@code deleteWhen}): CommitLog files older than {@code fileReservedTime} are deleted, with the ConsumeQueue and
 * index entries that pointed into them. Prints how many files went and the commit-log range before and after.
 *
 * <p>One instance per invocation, used by one thread.
 */
@Command(name = "clean", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Delete expired CommitLog files now (manual retention), whatever the hour.",
        footer = {"", "Only files older than fileReservedTime (hours) go; the newest file is always kept.",
                "Examples:",
                "  store-launcher --store /data/hangar clean",
                "  store-launcher --store /data/hangar -DfileReservedTime=24 clean --json"})
public final class CleanCommand implements Callable<Integer> {
    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--json", description = "One JSON object: deleted, minOffsetBefore, minOffsetAfter, files")
    private boolean json;

    @Override
    public Integer call() {
        StoreConfig config = launcher.prepare("warn", StoreUse.EXISTING);
        try (StoreSession session = StoreSession.open(launcher, config, StoreUse.EXISTING)) {
            DefaultMessageStore store = session.store();
            long before = store.getMinPhyOffset();
            int deleted = store.executeDeleteFilesManually();
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("deleted", deleted);
            result.put("minOffsetBefore", before);
            result.put("minOffsetAfter", store.getMinPhyOffset());
            result.put("files", store.statsSnapshot().commitLog().files());
            result.put("fileReservedHours", config.get(StoreConfigKeys.FILE_RESERVED_TIME));
            if (json) {
                launcher.out().println(JsonWriter.write(result));
            } else {
                launcher.out().println("deleted " + deleted + " commit-log file(s) older than "
                        + result.get("fileReservedHours") + " h; the commit log now starts at " + result.get("minOffsetAfter")
                        + " (was " + before + "), " + result.get("files") + " file(s) left");
            }
        }
        return 0;
    }
}
