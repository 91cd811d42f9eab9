package io.kftrainer.schema.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes' IP and CIDR libraries: {@code ip(s)}, {@code isIP(s)}, {@code ip.isCanonical(s)}, on an IP
 * {@code family()}, {@code isUnspecified()}, {@code isLoopback()}, {@code isLinkLocalMulticast()},
 * {@code isLinkLocalUnicast()}, {@code isGlobalUnicast()}; {@code cidr(s)}, {@code isCIDR(s)}, on a CIDR
 * {@code containsIP(ip or string)}, {@code containsCIDR(cidr or string)}, {@code ip()}, {@code masked()},
 * {@code prefixLength()}; {@code string()} of both.
 */
final class NetworkLibrary extends CelLibrary {

  static final CelType IP = OpaqueType.create("net.IP");
  static final CelType CIDR = OpaqueType.create("net.CIDR");

  @Override
  List<CelFunctionDecl> functions() {
    CelType string = SimpleType.STRING;
    CelType bool = SimpleType.BOOL;
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("ip", newGlobalOverload("string_to_ip", IP, string),
            newMemberOverload("cidr_ip", IP, CIDR)),
        CelFunctionDecl.newFunctionDeclaration("isIP", newGlobalOverload("is_ip", bool, string)),
        CelFunctionDecl.newFunctionDeclaration("ip.isCanonical", newGlobalOverload("ip_is_canonical", bool, string)),
        CelFunctionDecl.newFunctionDeclaration("family", newMemberOverload("ip_family", SimpleType.INT, IP)),
        CelFunctionDecl.newFunctionDeclaration("isUnspecified", newMemberOverload("ip_is_unspecified", bool, IP)),
        CelFunctionDecl.newFunctionDeclaration("isLoopback", newMemberOverload("ip_is_loopback", bool, IP)),
        CelFunctionDecl.newFunctionDeclaration("isLinkLocalMulticast",
            newMemberOverload("ip_is_link_local_multicast", bool, IP)),
        CelFunctionDecl.newFunctionDeclaration("isLinkLocalUnicast",
            newMemberOverload("ip_is_link_local_unicast", bool, IP)),
        CelFunctionDecl.newFunctionDeclaration("isGlobalUnicast",
            newMemberOverload("ip_is_global_unicast", bool, IP)),
        CelFunctionDecl.newFunctionDeclaration("cidr", newGlobalOverload("string_to_cidr", CIDR, string)),
        CelFunctionDecl.newFunctionDeclaration("isCIDR", newGlobalOverload("is_cidr", bool, string)),
        CelFunctionDecl.newFunctionDeclaration("containsIP",
            newMemberOverload("cidr_contains_ip_ip", bool, CIDR, IP),
            newMemberOverload("cidr_contains_ip_string", bool, CIDR, string)),
        CelFunctionDecl.newFunctionDeclaration("containsCIDR",
            newMemberOverload("cidr_contains_cidr", bool, CIDR, CIDR),
            newMemberOverload("cidr_contains_cidr_string", bool, CIDR, string)),
        CelFunctionDecl.newFunctionDeclaration("masked", newMemberOverload("cidr_masked", CIDR, CIDR)),
        CelFunctionDecl.newFunctionDeclaration("prefixLength",
            newMemberOverload("cidr_prefix_length", SimpleType.INT, CIDR)),
        CelFunctionDecl.newFunctionDeclaration("string", newGlobalOverload("ip_to_string", string, IP),
            newGlobalOverload("cidr_to_string", string, CIDR)));
  }

  @Override
  List<CelFunctionBinding> bindings() {
    Class<IpValue> ip = IpValue.class;
    Class<CidrValue> cidr = CidrValue.class;
    return List.of(
        CelFunctionBinding.from("string_to_ip", String.class, s -> parsed(IpValue::parse, s)),
        CelFunctionBinding.from("is_ip", String.class, s -> parses(IpValue::parse, s)),
        CelFunctionBinding.from("ip_is_canonical", String.class, s -> parsed(IpValue::parse, s).toString().equals(s)),
        CelFunctionBinding.from("ip_family", ip, IpValue::family),
        CelFunctionBinding.from("ip_is_unspecified", ip, IpValue::isUnspecified),
        CelFunctionBinding.from("ip_is_loopback", ip, IpValue::isLoopback),
        CelFunctionBinding.from("ip_is_link_local_multicast", ip, IpValue::isLinkLocalMulticast),
        CelFunctionBinding.from("ip_is_link_local_unicast", ip, IpValue::isLinkLocalUnicast),
        CelFunctionBinding.from("ip_is_global_unicast", ip, IpValue::isGlobalUnicast),
        CelFunctionBinding.from("ip_to_string", ip, IpValue::toString),
        CelFunctionBinding.from("string_to_cidr", String.class, s -> parsed(CidrValue::parse, s)),
        CelFunctionBinding.from("is_cidr", String.class, s -> parses(CidrValue::parse, s)),
        CelFunctionBinding.from("cidr_ip", cidr, CidrValue::ip),
        CelFunctionBinding.from("cidr_masked", cidr, CidrValue::masked),
        CelFunctionBinding.from("cidr_prefix_length", cidr, c -> (long) c.prefixLength()),
        CelFunctionBinding.from("cidr_contains_ip_ip", cidr, ip, (c, a) -> c.containsIp(a.address())),
        CelFunctionBinding.from("cidr_contains_ip_string", cidr, String.class,
            (c, s) -> c.containsIp(parsed(IpValue::parse, s).address())),
        CelFunctionBinding.from("cidr_contains_cidr", cidr, cidr, CidrValue::containsCidr),
        CelFunctionBinding.from("cidr_contains_cidr_string", cidr, String.class,
            (c, s) -> c.containsCidr(parsed(CidrValue::parse, s))),
        CelFunctionBinding.from("cidr_to_string", cidr, CidrValue::toString));
  }
}
