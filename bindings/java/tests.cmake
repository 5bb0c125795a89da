# The Java binding's tests (included by bindings/java/CMakeLists.txt).
