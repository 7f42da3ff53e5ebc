package dev.platform.identity.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a load balancer does for a rolling restart, on loopback: each front port forwards a new
 * connection to its own node, or to the other one while its own is drained. A node is drained
 * before it stops and taken back once it is ready again, so a client sees at most a connection that
 * breaks as the node stops, which it retries like any network failure.
 */
final class FailoverFront implements AutoCloseable {
  private final List<Integer> nodes;
  private final Set<Integer> drained = ConcurrentHashMap.newKeySet();
  private final List<ServerSocket> fronts = new CopyOnWriteArrayList<>();
  private final List<Socket> open = new CopyOnWriteArrayList<>();

  /** One front per node port in {@code nodes}; front {@code i} prefers node {@code i}. */
  FailoverFront(List<Integer> nodes) throws IOException {
    this.nodes = List.copyOf(nodes);
    for (int i = 0; i < nodes.size(); i++) {
      ServerSocket front = new ServerSocket();
      front.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      fronts.add(front);
      int preferred = i;
      Thread accept = new Thread(() -> accept(front, preferred), "front-" + i);
      accept.setDaemon(true);
      accept.start();
    }
  }

  int port(int node) {
    return fronts.get(node).getLocalPort();
  }

  /** New connections avoid node {@code node} until {@link #restore}. */
  void drain(int node) {
    drained.add(node);
  }

  void restore(int node) {
    drained.remove(node);
  }

  @Override
  public void close() throws IOException {
    for (ServerSocket front : fronts) {
      front.close();
    }
    for (Socket socket : open) {
      socket.close();
    }
  }

  private void accept(ServerSocket front, int preferred) {
    while (!front.isClosed()) {
      Socket client;
      try {
        client = front.accept();
      } catch (IOException e) {
        return; // the front closed
      }
      int target = drained.contains(preferred) ? (preferred + 1) % nodes.size() : preferred;
      try {
        Socket server = new Socket(InetAddress.getLoopbackAddress(), nodes.get(target));
        open.add(client);
        open.add(server);
        pump(client, server);
        pump(server, client);
      } catch (IOException e) {
        close(client); // the node refused: the client sees a closed connection and retries
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread thread =
        new Thread(
            () -> {
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
              } catch (IOException e) {
                // One side went away; closing both below ends the other direction too.
              } finally {
                close(from);
                close(to);
              }
            },
            "front-pump");
    thread.setDaemon(true);
    thread.start();
  }

  private void close(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // Already closed.
    }
    open.remove(socket);
  }
}
