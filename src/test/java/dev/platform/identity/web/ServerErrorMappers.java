package dev.platform.identity.web;

import jakarta.ws.rs.core.UriInfo;
import java.lang.reflect.Proxy;

/** A {@link ServerErrorMapper} as Jersey injects it, for a request to one path. */
final class ServerErrorMappers {
  private ServerErrorMappers() {}

  static ServerErrorMapper at(String path) {
    ServerErrorMapper mapper = new ServerErrorMapper();
    mapper.uri =
        (UriInfo)
            Proxy.newProxyInstance(
                UriInfo.class.getClassLoader(),
                new Class<?>[] {UriInfo.class},
                (self, method, args) -> method.getName().equals("getPath") ? path : null);
    return mapper;
  }
}
