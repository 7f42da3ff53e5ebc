package dev.platform.identity.web;

import jakarta.servlet.Filter;
import jakarta.servlet.GenericServlet;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;

/**
 * A servlet behind a filter of its own, as one servlet: the token endpoint behind its rate limit.
 * The front door hands a body it has read to a servlet, not to the filter chain, which has ended by
 * then; so a filter that needs the body goes with the servlet.
 */
final class FilteredServlet extends GenericServlet {
  private final transient Filter filter;
  private final transient Servlet servlet;

  FilteredServlet(Filter filter, Servlet servlet) {
    this.filter = filter;
    this.servlet = servlet;
  }

  @Override
  public void init(ServletConfig config) throws ServletException {
    super.init(config);
    servlet.init(config);
  }

  @Override
  public void service(ServletRequest request, ServletResponse response)
      throws ServletException, IOException {
    filter.doFilter(request, response, servlet::service);
  }

  @Override
  public void destroy() {
    servlet.destroy();
  }
}
