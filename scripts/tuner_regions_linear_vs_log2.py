#!/usr/bin/env python3
"""aws-ofi-nccl's p5 region tuner, evaluated in log2 space (v1.19.0 on, what ddpsim does) and in
linear (bytes, ranks) space (v1.10.0-v1.18.x): how many choices differ (docs/algorithms.md).

The vertices are those of algorithms/aws_ofi_tuner_regions.cpp (p5.48xlarge, all-reduce, 8 ranks
per node), the same in v1.10.0-aws and v1.21.1 (github aws/aws-ofi-nccl, src/tuner); extend_region
and the on-edge-is-inside rule as in the source. Prints the log2 choices at 4, 16 and 32 nodes (to
compare with `ddpsim collective --instance p5.48xlarge --nodes N -b 32M -e 8G`) and the count of
grid points whose region differs. Needs python3 only.
"""
import math
MAXS=100.0*1024**3; MAXR=1024.0*1024
def ext(a,b,z):
    if a[0]==b[0]: return (a[0],z[1])
    if a[1]==b[1]: return (z[0],a[1])
    m=(a[1]-b[1])/(a[0]-b[0]); c=b[1]-m*b[0]; zy=m*z[0]+c
    return (z[0],zy) if zy<z[1] else ((z[1]-c)/m, z[1])
def table(tr):
    L=lambda x,y: tr((x,y))
    z=L(MAXS,MAXR)
    tl=ext(L(402653184,2048),L(402653184,4096),z)
    n1=ext(L(8053063680,160),L(9663676416,192),z)
    n2=tl
    rs=n1
    zero=L(0,16) if tr((0,16))[0]==0 else L(1e-6,16)
    return [("tree LL128",[L(0,16),L(31457280,16),L(37748736,32),L(117440512,64),L(301989888,128),L(301989888,256),L(335544320,512),L(536870912,1024),L(402653184,2048),L(402653184,4096),tl,(L(0,1)[0],tl[1])]),
     ("nvlstree",[L(31457281,16),L(MAXS,16),L(31457281,16)]),
     ("ring LL128",[L(31457280,17),L(1073741824,17),L(2147483648,64),L(2147483648,128),L(1342177280,160),L(2147483648,256),L(1074790400,256),L(444596224,160),L(301989888,128),L(117440512,64),L(37748736,32)]),
     ("nvlstree",[L(2147483648,128),L(6442450944,128),L(8053063680,160),L(9663676416,192),n1,n2,L(402653184,4096),L(402653184,2048),L(536870912,1024),L(335544320,512),L(301989888,256),L(310378496,160),L(444596224,160),L(1074790400,256),L(2684354560,256),L(2147483648,224),L(1342177280,160)]),
     ("ring Simple",[L(1073741824,17),(rs[0],L(1,17)[1]),rs,L(9663676416,192),L(8053063680,160),L(2684354560,64),L(1610612736,32)])]
def onseg(p,a,b,eps=1e-9):
    cr=(b[0]-a[0])*(p[1]-a[1])-(b[1]-a[1])*(p[0]-a[0])
    if abs(cr)>eps*max(1,abs(b[0]-a[0])*abs(b[1]-a[1])+1): return False
    return min(a[0],b[0])-eps<=p[0]<=max(a[0],b[0])+eps and min(a[1],b[1])-eps<=p[1]<=max(a[1],b[1])+eps
def inside(p,poly):
    n=len(poly)
    for i in range(n):
        if onseg(p,poly[i],poly[(i+1)%n]): return True
    c=False
    for i in range(n):
        a=poly[i]; b=poly[(i+1)%n]
        if (a[1]>p[1])!=(b[1]>p[1]):
            x=a[0]+(p[1]-a[1])*(b[0]-a[0])/(b[1]-a[1])
            if p[0]<x: c=not c
    return c
lg=lambda p:(math.log2(p[0] if p[0]>0 else 1e-6), math.log2(p[1] if p[1]>0 else 1e-6))
lin=lambda p:p
def choose(tr,b,r):
    for name,poly in table(tr):
        if inside(tr((b,r)),poly): return name
    return "nccl"
diff=0; tot=0
for nodes in [4,8,16,32]:
  r=8*nodes
  row=[]
  for k in range(25,34):
    b=2**k
    a=choose(lg,b,r); c=choose(lin,b,r); tot+=1
    if a!=c: diff+=1; row.append(f"{b>>20}M:{a}->{c}")
  print(nodes, "nodes, powers of two 32 MiB-8 GiB, log2 -> linear where they differ:", row)
print("log-space choices:")
for nodes in [4,16,32]:
  print(nodes, "nodes:", ", ".join(f"{2**(k-20)} MiB {choose(lg, 2**k, 8*nodes)}" for k in range(25, 34)))
diff=0;tot=0
for nodes in range(3,129):
  for k in range(10,37):
    for f in (1.0,1.5):
      b=int(2**k*f); a=choose(lg,b,8*nodes); c=choose(lin,b,8*nodes); tot+=1
      if a!=c: diff+=1
print(f"3-128 nodes, 1 KiB-96 GiB (powers of two and 1.5x): {diff} of {tot} points differ")
