package dev.hangar.bench;

/** Message bodies: incompressible-looking bytes, different per writer thread. */
final class Bodies {
    private Bodies() {
    }

    static byte[] of(int size, int seed) {
        byte[] body = new byte[size];
        long x = 0x9E3779B97F4A7C15L * (seed + 1);
        for (int i = 0; i < size; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            body[i] = (byte) x;
        }
        return body;
    }
}
