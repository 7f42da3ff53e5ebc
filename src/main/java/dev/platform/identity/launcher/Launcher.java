package dev.platform.identity.launcher;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.startup.Tomcat;

/** Starts the WAR on embedded Tomcat, by default on 127.0.0.1:8080 with H2 under ./data. */
public final class Launcher {
  static {
    // Before the first logger (below); a string, since LauncherLogManager.class would initialize
    // the JDK's LogManager, which reads this property once.
    System.setProperty(
        "java.util.logging.manager", "dev.platform.identity.launcher.LauncherLogManager");
  }

  private static final Logger LOG = Logger.getLogger(Launcher.class.getName());

  private Launcher() {}

  public static void main(String[] args) throws Exception {
    if (Options.asksForHelp(args)) {
      System.out.print(Options.HELP);
      return;
    }
    Options options;
    try {
      options = Options.parse(args, defaultWar());
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    Tomcat tomcat;
    try {
      tomcat = start(options);
    } catch (IllegalStateException e) {
      System.err.println(e.getMessage());
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(tomcat), "identity-stop"));
    // Only now: a Ctrl-C once this line is out must find the hook that stops Tomcat.
    LOG.info(
        "Identity service listening on "
            + options.scheme()
            + "://"
            + options.bind()
            + ":"
            + options.port()
            + " (data in "
            + options.data()
            + ")");
    tomcat.getServer().await();
  }

  static Tomcat start(Options options) throws IOException, LifecycleException {
    if (!Files.isRegularFile(options.war())) {
      throw new IllegalStateException(options.war() + " is missing: build it with mvn package");
    }
    Tomcat tomcat = new Tomcat();
    LogLine.install(); // after new Tomcat(), which resets java.util.logging
    DataFolder.prepare(options.data()); // owner-only before anything is made inside it
    Path base = TomcatFolder.fresh(options.data());
    tomcat.setBaseDir(base.toString());
    tomcat.setPort(options.port());
    Connector connector = tomcat.getConnector();
    connector.setProperty("address", options.bind());
    // At most 100 requests on one connection (Tomcat's default). A client that pipelines
    // requests and reads no answer gets at most 100 answers written to it, about 120 KB of key
    // lists, which the socket's buffers take without the thread waiting; a backend that keeps its
    // connection opens a new one every hundredth token, which costs far less than the signature.
    connector.setProperty("maxKeepAliveRequests", "100");
    // "100 Continue" only once the service reads the body: a body the front door refuses unread
    // is never invited (Tomcat's default sends it before the service has looked).
    connector.setProperty("continueResponseTiming", "onRead");
    connector.setProperty("maxThreads", Integer.toString(options.threads()));
    // A virtual thread per request instead of the pool of maxThreads (Tomcat 10.1's executor):
    // maxConnections and the service's own shares then bound the work, not the pool.
    connector.setProperty("useVirtualThreads", Boolean.toString(options.virtualThreads()));
    // A client gets 5 s for its request line and headers, and for each read of a body that is read
    // blocking (the token body is read non-blocking, with its own deadline); an idle kept-alive
    // connection is closed after 20 s. Tomcat's defaults (60 s, and keep-alive equal to it) let a
    // few slow clients hold connections for a minute each.
    connector.setProperty("connectionTimeout", "5000");
    connector.setProperty("keepAliveTimeout", "20000");
    // A body that an endpoint answered without reading (a 401, a 405, a GET with a body) is not
    // drained: the connection is closed after the first read. Draining reads on the request thread,
    // so a client trickling a long body held that thread for as long as it liked.
    connector.setProperty("maxSwallowSize", "0");
    // A client that sends "Expect: 100-continue" waits for Tomcat's 100 before its body. Tomcat
    // sends it when the application first reads blocking; the service reads every body without
    // blocking (its front door, with a deadline), so that read never came and such a client got no
    // answer at all (curl waits 1 s, others as long as their own timeout). The 100 now goes as soon
    // as the headers are read: the body is then bounded by the front door's cap and deadline.
    connector.setProperty("continueResponseTiming", "immediately");
    ClientCertificates.configure(tomcat, options); // issue 39: HTTPS, or a trusted proxy's header
    tomcat.enableNaming();
    ((StandardHost) tomcat.getHost()).setErrorReportValveClass(JsonErrorPages.class.getName());
    tomcat.setAddDefaultWebXmlToWebapp(false);
    Context context = tomcat.addWebapp("", options.war().toString());
    if (options.context().isPresent()) {
      context.setConfigFile(options.context().get().toUri().toURL());
    }
    context.addLifecycleListener(new EmbeddedDefaults(options));
    tomcat.start();
    if (context.getState() != LifecycleState.STARTED) {
      stop(tomcat);
      throw new IllegalStateException("the identity service did not start: see the log above");
    }
    return tomcat;
  }

  private static void stop(Tomcat tomcat) {
    try {
      tomcat.stop();
      tomcat.destroy();
      TomcatFolder.delete(tomcat.getServer().getCatalinaBase().toPath());
      LOG.info("Identity service stopped");
    } catch (LifecycleException | IOException e) {
      LOG.warning("Stopping Tomcat failed: " + e.getMessage());
    }
  }

  /** The WAR beside the launcher's own folder: target/identity.war. */
  private static Path defaultWar() throws URISyntaxException {
    File jar = new File(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return jar.toPath().getParent().resolveSibling("identity.war");
  }
}
