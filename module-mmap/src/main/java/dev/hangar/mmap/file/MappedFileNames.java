package dev.hangar.mmap.file;

/**
 * Mapped files are named by the offset of their first byte, zero-padded to 20 decimal digits, as RocketMQ names
 * them ({@code 00000000001073741824}). Stateless; thread-safe.
 */
public final class MappedFileNames {
    /** Digits in a file name: enough for any non-negative long. */
    public static final int NAME_LENGTH = 20;

    private MappedFileNames() {
    }

    /** The file name of a file starting at {@code offset}. */
    public static String of(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("a mapped file cannot start at a negative offset: " + offset);
        }
        return String.format("%020d", offset);
    }

    /** True when {@code name} is exactly 20 decimal digits. */
    public static boolean isMappedFileName(String name) {
        if (name.length() != NAME_LENGTH) {
            return false;
        }
        for (int i = 0; i < NAME_LENGTH; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** The start offset a file name stands for. */
    public static long offsetOf(String name) {
        if (!isMappedFileName(name)) {
            throw new IllegalArgumentException("not a mapped file name (20 decimal digits): '" + name + "'");
        }
        try {
            return Long.parseLong(name);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("mapped file name out of range: '" + name + "'");
        }
    }
}
