package org.wurl;

/**
 * A call that could not be made: an input longer than {@link Wurl#MAX_INPUT_LEN} bytes in UTF-8,
 * an internal error (a panic caught in the native library), a state that is not a URL's. An
 * invalid URL is not an exception: it gives {@code null} (or an invalid {@link WurlUrl}).
 *
 * <p>{@link #status()} is the C ABI's status code ({@code wurl_status} of {@code wurl.h}, the
 * constants below), {@link #reason()} the English description.
 */
public class WurlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** {@code WURL_E_NULL_ARG}: a required argument is missing. */
    public static final int NULL_ARG = 1;
    /** {@code WURL_E_BAD_ARG}: an argument is out of range. */
    public static final int BAD_ARG = 2;
    /** {@code WURL_E_TOO_LONG}: an input longer than {@link Wurl#MAX_INPUT_LEN} bytes in UTF-8. */
    public static final int TOO_LONG = 3;
    /** {@code WURL_E_PANIC}: an internal error, caught in the native library. */
    public static final int PANIC = 4;
    /** {@code WURL_INVALID_URL}: the URL is invalid (where a call needs a valid one). */
    public static final int INVALID_URL = 6;
    /** {@code WURL_E_BAD_STATE}: bytes that are no URL state the library wrote. */
    public static final int BAD_STATE = 9;

    private final int status;
    private final String reason;

    /** Made by the native library (and the classes of this package). */
    WurlException(int status, String reason) {
        super(reason + " (status " + status + ")");
        this.status = status;
        this.reason = reason;
    }

    /** The C ABI's status code of the failure ({@link #TOO_LONG}, {@link #PANIC}, ...). */
    public int status() {
        return status;
    }

    /** Why the call failed, in English. */
    public String reason() {
        return reason;
    }
}
