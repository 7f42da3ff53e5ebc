/** Rules for the text that administrators give and later see: names, subjects, descriptions. */
package dev.platform.identity.text;
