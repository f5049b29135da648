package dev.hangar.launcher.command;

import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.store.verify.StoreVerifier;
import dev.hangar.store.verify.VerifyReport;
import dev.hangar.store.verify.VerifyReport.Problem;
import dev.hangar.store.verify.VerifyReport.Severity;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code verify}: checks a store directory offline with {@link StoreVerifier} - CRC and structure of every
 * CommitLog record, ConsumeQueue unit, index file and the checkpoint - and prints every problem (severity, file,
 * byte offset, message) and a summary. Read-only: it does not open the store (no lock, no recovery, no log file in
 * the store), so it changes no byte, and it may run next to a running store (whose newest bytes may then look torn).
 *
 * <p>Exit 0 when healthy (no ERROR; with {@code --strict}, no WARNING either), 1 otherwise.
 * One instance per invocation, used by one thread.
 */
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Check the CRC and structure of every file of a store, without opening it.",
                "Exit 0 healthy, 1 problems (each named: severity, file, offset, message)."},
        footer = {"", "The configuration must describe the store as it was written (mappedFileSizeCommitLog, ...).",
                "Examples:",
                "  store-launcher --store /data/hangar verify",
                "  store-launcher --store rmq -DmappedFileSizeCommitLog=1073741824 verify --json"})
public final class VerifyCommand implements Callable<Integer> {
    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--json", description = "One JSON object: healthy, errors, warnings, counts, problems[]")
    private boolean json;

    @Option(names = "--strict", description = "Warnings count as problems too (exit 1)")
    private boolean strict;

    @Override
    public Integer call() {
        // NONE: verify must not even create the log folder in the store it checks
        StoreConfig config = launcher.prepare("warn", StoreUse.NONE);
        // every dispatcher found, plugins included, checks its own files
        VerifyReport report = StoreVerifier.verify(launcher.storePath(), config,
                StoreVerifier.dispatchersOf(launcher.registry()));
        boolean ok = report.healthy() && (!strict || report.problems(Severity.WARNING).isEmpty());
        PrintWriter out = launcher.out();
        if (json) {
            out.println(JsonWriter.write(report.toMap()));
        } else {
            printText(out, report, ok);
        }
        return ok ? 0 : 1;
    }

    private static void printText(PrintWriter out, VerifyReport report, boolean ok) {
        for (Problem p : report.problems()) {
            out.printf(Locale.ROOT, "%-7s %s%s: %s%n", p.severity(), p.file().isEmpty() ? "." : p.file(),
                    p.offset() >= 0 ? " @" + p.offset() : "", p.message());
        }
        long errors = report.problems().stream().filter(p -> p.severity() == Severity.ERROR).count();
        long warnings = report.problems().stream().filter(p -> p.severity() == Severity.WARNING).count();
        StringBuilder counts = new StringBuilder();
        for (Map.Entry<String, Long> e : report.counts().entrySet()) {
            counts.append(counts.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
        }
        out.printf(Locale.ROOT, "%s: %s (%d errors, %d warnings); commit log %d..%d; %s%n",
                ok ? "healthy" : "NOT HEALTHY", report.root(), errors, warnings, report.commitLogMinOffset(),
                report.commitLogMaxOffset(), counts);
    }
}
