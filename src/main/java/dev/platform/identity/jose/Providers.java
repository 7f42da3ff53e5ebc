package dev.platform.identity.jose;

import java.security.Provider;
import java.security.Security;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The provider choice: Amazon Corretto Crypto Provider (ACCP, AWS-LC) where its class is present,
 * its native library loads and its self-tests pass, else the JDK's. Found by reflection, so the
 * libraries need ACCP only where their user adds it.
 */
public final class Providers {
  private static final Logger LOG = Logger.getLogger(Providers.class.getName());
  private static final String ACCP =
      "com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider";

  private Providers() {}

  /** ACCP when usable, else the JDK's {@code SunRsaSign}; chosen once per class loader. */
  public static Provider rsa() {
    return Default.ACCP.orElseGet(() -> Security.getProvider("SunRsaSign"));
  }

  /**
   * ACCP when usable, else the JDK's {@code SunEC}: ECDSA verification in AWS-LC takes about a
   * tenth of SunEC's time on JDK 17, whose P-256 arithmetic is Java (docs/performance.md).
   */
  public static Provider ecdsa() {
    return Default.ACCP.orElseGet(() -> Security.getProvider("SunEC"));
  }

  /**
   * ACCP, when it loads here and passes its self-tests.
   *
   * <p>ACCP starts its one "Native reference cleanup thread" when its classes initialise, and a new
   * thread takes the context class loader of the thread that starts it: under a web application's
   * loader, the container warns at every stop that the application started a thread it cannot stop.
   * So the classes initialise with the context loader's parent. The self-tests run here, on this
   * thread, rather than later on the common pool, where a container that has closed the
   * application's loader by then would make them fail.
   *
   * @param problem told why ACCP is not usable, when it is not
   */
  public static Optional<Provider> accp(Consumer<String> problem) {
    Thread thread = Thread.currentThread();
    ClassLoader context = thread.getContextClassLoader();
    thread.setContextClassLoader(context == null ? null : context.getParent());
    try {
      Class<?> type = Class.forName(ACCP, true, Providers.class.getClassLoader());
      Provider accp = (Provider) type.getField("INSTANCE").get(null);
      Object error = type.getMethod("getLoadingError").invoke(accp);
      if (error != null) {
        problem.accept("ACCP cannot load here: " + error);
        return Optional.empty();
      }
      Object selfTests = type.getMethod("runSelfTests").invoke(accp);
      if (!"PASSED".equals(String.valueOf(selfTests))) {
        problem.accept("ACCP's self-tests say " + selfTests);
        return Optional.empty();
      }
      return Optional.of(accp);
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      problem.accept("ACCP cannot load here: " + e);
      return Optional.empty();
    } finally {
      thread.setContextClassLoader(context);
    }
  }

  private static final class Default {
    static final Optional<Provider> ACCP = accp(LOG::fine);
  }
}
