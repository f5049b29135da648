package dev.hangar.launcher.command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code raft status} for people: the node's role and term, the leader, the committed offset, then one row per
 * peer with its match offset, lag and last contact ({@code -} where this node does not know them: a follower).
 * Reads the {@code /v1/raft} JSON object. Stateless.
 */
final class RaftStatusTable {
    private RaftStatusTable() {
    }

    static void print(PrintWriter out, Map<String, Object> s) {
        String self = text(s.get("selfId"));
        String leader = text(s.get("leaderId"));
        String address = text(s.get("leaderServeAddress"));
        out.println("node " + self + ": " + s.get("role") + ", term " + s.get("term"));
        if (leader.isEmpty()) {
            out.println("leader: none");
        } else {
            boolean ready = Boolean.TRUE.equals(s.get("leaderReady"));
            out.println("leader: " + leader + (address.isEmpty() ? "" : " (" + address + ")")
                    + (leader.equals(self) && !ready ? ", not ready for writes yet" : ""));
        }
        out.println("committed offset: " + s.get("committedOffset") + ", log end: " + s.get("logEnd"));
        String problem = text(s.get("problem"));
        if (!problem.isEmpty()) {
            out.println("problem: " + problem);
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("PEER", "ADDRESS", "MATCH OFFSET", "LAG BYTES", "LAST CONTACT"));
        if (s.get("peers") instanceof List<?> peers) {
            for (Object o : peers) {
                if (o instanceof Map<?, ?> p) {
                    String id = text(p.get("id"));
                    String mark = id.equals(leader) ? " (leader)" : id.equals(self) ? " (this node)" : "";
                    rows.add(List.of(id + mark, text(p.get("address")), known(p.get("matchOffset"), ""),
                            known(p.get("lagBytes"), ""), known(p.get("lastContactMillis"), " ms ago")));
                }
            }
        }
        printTable(out, rows);
        if (!"LEADER".equals(s.get("role")) && !address.isEmpty()) {
            out.println("each peer's progress is known on the leader: raft status --url " + address);
        }
    }

    private static String text(Object o) {
        return o == null ? "" : o.toString();
    }

    /** A figure, or {@code -} for -1 (unknown on this node). */
    private static String known(Object value, String unit) {
        return value instanceof Number n && n.longValue() < 0 ? "-" : text(value) + unit;
    }

    private static void printTable(PrintWriter out, List<List<String>> rows) {
        int[] widths = new int[rows.get(0).size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                line.append(i == 0 ? "" : "  ");
                // text columns left-aligned, figures right-aligned
                line.append(i < 2 ? pad(cell, widths[i], false) : pad(cell, widths[i], true));
            }
            out.println(line.toString().stripTrailing());
        }
    }

    private static String pad(String s, int width, boolean right) {
        String spaces = " ".repeat(width - s.length());
        return right ? spaces + s : s + spaces;
    }
}
