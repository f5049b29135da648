package dev.hangar.bench;

import dev.hangar.spi.flush.LatencyHistogram;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * What one thread hand-off costs on this machine, at a given rate: a producer stamps the time and unparks a parked
 * consumer, which records how long it took to run. Replication needs at least two such hand-offs in series (the
 * master's connection thread, the slave's client thread), so their sum bounds the replication lag from below: on
 * a machine whose run queues are long, no code on the data path gets under it.
 */
final class WakeupFloor {
    private WakeupFloor() {
    }

    /** {@code samples} hand-offs at {@code perSecond}; the latency from unpark to the consumer running. */
    static LatencyHistogram measure(int samples, double perSecond) throws InterruptedException {
        LatencyHistogram rec = new LatencyHistogram();
        AtomicLong stamp = new AtomicLong();
        Thread consumer = new Thread(() -> {
            int seen = 0;
            while (seen < samples) {
                long s = stamp.getAndSet(0);
                if (s != 0) {
                    rec.record(System.nanoTime() - s);
                    seen++;
                } else {
                    LockSupport.park();
                }
            }
        }, "wakeup-floor-consumer");
        consumer.start();
        long interval = (long) (1e9 / perSecond);
        long slot = System.nanoTime();
        for (int i = 0; i < samples && consumer.isAlive(); i++) {
            slot += interval;
            long wait = slot - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            while (!stamp.compareAndSet(0, System.nanoTime())) {
                Thread.onSpinWait(); // the consumer has not taken the previous one yet
            }
            LockSupport.unpark(consumer);
        }
        consumer.join(60_000);
        return rec;
    }
}
