package dev.hangar.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** What the benchmark ran on, for the report. */
public record Machine(int cpus, String cpuModel, String memory, String jdk, String os, String date) {

    public static Machine describe() {
        return new Machine(Runtime.getRuntime().availableProcessors(), readCpuModel(), readMemory(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")));
    }

    private static String readCpuModel() {
        return procLine("/proc/cpuinfo", "model name").map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("?");
    }

    private static String readMemory() {
        return procLine("/proc/meminfo", "MemTotal").map(l -> {
            long kb = Long.parseLong(l.replaceAll("\\D", ""));
            return String.format("%.1f GiB", kb / 1024.0 / 1024.0);
        }).orElse("?");
    }

    private static java.util.Optional<String> procLine(String file, String prefix) {
        try {
            List<String> lines = Files.readAllLines(Path.of(file));
            return lines.stream().filter(l -> l.startsWith(prefix)).findFirst();
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }
}
