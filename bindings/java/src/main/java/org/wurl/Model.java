package org.wurl;

/** Which model of URLs a call follows. */
public enum Model {
    /** The 2012 Web::URL::Canonicalize algorithm: the default everywhere, wurl's key. */
    CANON_2012("2012"),
    /** The WHATWG URL Standard's parser and serializer (the Rust {@code url} crate). */
    URL_STANDARD("url-standard");

    private final String label;

    Model(String label) {
        this.label = label;
    }

    /** The model's name as every wurl interface spells it: {@code 2012} or {@code url-standard}. */
    public String label() {
        return label;
    }

    /**
     * The model named {@code 2012} or {@code url-standard} (ASCII case-insensitive), as the CLI's
     * {@code --model} and Python's {@code model=} read it.
     *
     * @throws IllegalArgumentException for another name
     */
    public static Model fromName(String name) {
        java.util.Objects.requireNonNull(name, "name");
        for (Model m : values()) {
            if (m.label.equalsIgnoreCase(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException(
                "model must be \"2012\" or \"url-standard\", not \"" + name + "\"");
    }
}
