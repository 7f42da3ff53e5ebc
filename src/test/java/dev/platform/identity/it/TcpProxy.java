package dev.platform.identity.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP forwarder to a local server (PostgreSQL, MariaDB), which a test can cut and
 * restore: the database becomes unreachable for the service without touching the machine's server.
 */
final class TcpProxy implements AutoCloseable {
  private final int target;
  private final int port;
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private volatile ServerSocket server;

  TcpProxy(int target) throws IOException {
    this.target = target;
    this.server = listen(0);
    this.port = server.getLocalPort();
    accept(server);
  }

  int port() {
    return port;
  }

  /** Refuses new connections and breaks the open ones. */
  synchronized void cut() throws IOException {
    server.close();
    for (Socket socket : open) {
      socket.close();
    }
    open.clear();
  }

  /** Listens again on the same port. */
  synchronized void restore() throws IOException {
    server = listen(port);
    accept(server);
  }

  @Override
  public void close() throws IOException {
    cut();
  }

  private static ServerSocket listen(int port) throws IOException {
    ServerSocket socket = new ServerSocket();
    socket.setReuseAddress(true);
    socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    return socket;
  }

  private void accept(ServerSocket listening) {
    Thread acceptor =
        new Thread(
            () -> {
              while (!listening.isClosed()) {
                try {
                  Socket client = listening.accept();
                  Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                  open.add(client);
                  open.add(upstream);
                  pump(client, upstream);
                  pump(upstream, client);
                } catch (IOException e) {
                  // closed by cut(), or the target refused
                }
              }
            },
            "proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private static void pump(Socket from, Socket to) {
    Thread pump =
        new Thread(
            () -> {
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
              } catch (IOException e) {
                // either side closed
              } finally {
                try {
                  from.close();
                  to.close();
                } catch (IOException e) {
                  // already closed
                }
              }
            },
            "proxy-pump");
    pump.setDaemon(true);
    pump.start();
  }
}
