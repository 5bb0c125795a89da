package org.wurl;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

/**
 * A native handle shared by threads: freed exactly once, and never while a call uses it. Each
 * call brackets its use with {@link #acquire()} and {@link #release()}; {@link #close()} (by the
 * owner's {@code close()} or its Cleaner) marks it closed, and whichever of the two comes last
 * frees it. A use after close throws {@link IllegalStateException} instead of reaching freed
 * memory. Because the in-flight calls count as users, a Cleaner that runs while one of them is in
 * native code (the owner unreachable but its handle still in use) only marks the handle.
 */
final class NativeHandle implements Runnable {
    private final long ptr;
    private final LongConsumer free;
    private final String what;
    /** Twice the number of calls using the handle, plus 1 once closed. */
    private final AtomicInteger state = new AtomicInteger();

    NativeHandle(long ptr, LongConsumer free, String what) {
        if (ptr == 0) {
            throw new WurlException(WurlException.PANIC, "the native library returned no " + what);
        }
        this.ptr = ptr;
        this.free = free;
        this.what = what;
    }

    /** The pointer, for one call; pair with {@link #release()} in a finally block. */
    long acquire() {
        for (;;) {
            int s = state.get();
            if ((s & 1) != 0) {
                throw new IllegalStateException("this " + what + " is closed");
            }
            if (s > Integer.MAX_VALUE - 2) {
                throw new IllegalStateException("too many concurrent calls on one " + what);
            }
            if (state.compareAndSet(s, s + 2)) {
                return ptr;
            }
        }
    }

    void release() {
        if (state.addAndGet(-2) == 1) {
            free.accept(ptr);
        }
    }

    /** Idempotent: frees now when no call uses the handle, else when the last one ends. */
    void close() {
        for (;;) {
            int s = state.get();
            if ((s & 1) != 0) {
                return;
            }
            if (state.compareAndSet(s, s | 1)) {
                if (s == 0) {
                    free.accept(ptr);
                }
                return;
            }
        }
    }

    boolean isClosed() {
        return (state.get() & 1) != 0;
    }

    /** The Cleaner's action. */
    @Override
    public void run() {
        close();
    }
}
