package dev.hangar.launcher;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** One in-process invocation of store-launcher: exit code and what it printed. */
record LauncherRun(int code, String out, String err) {

    static LauncherRun of(Map<String, String> env, String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = StoreLauncher.run(args, env, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out), new PrintWriter(err));
        return new LauncherRun(code, out.toString(), err.toString());
    }

    List<String> lines() {
        List<String> lines = new ArrayList<>(Arrays.asList(out.split("\n")));
        lines.removeIf(String::isBlank);
        return lines;
    }

    /** The lines the launcher itself wrote to stderr, without log lines. */
    List<String> errorLines() {
        return Arrays.stream(err.split("\n")).filter(l -> l.startsWith("error: ")).toList();
    }

    @Override
    public String toString() {
        return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
