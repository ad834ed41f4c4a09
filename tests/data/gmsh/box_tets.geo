// A unit cube of tets, its volume and three groups of its faces named:
// tests/mesh_formats.cmake has gmsh mesh it, converts the mesh to Exodus II
// and CGNS, and checks that umesh_main gives the same results on all three.
SetFactory("Built-in");
lc = 0.25;
Point(1) = {0, 0, 0, lc};
Point(2) = {1, 0, 0, lc};
Point(3) = {1, 1, 0, lc};
Point(4) = {0, 1, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
out[] = Extrude {0, 0, 1} { Surface{1}; };
Physical Surface("bottom", 5) = {1};
Physical Surface("walls", 6) = {out[2], out[3], out[4], out[5]};
Physical Surface("top", 8) = {out[0]};
Physical Volume("fluid", 7) = {out[1]};
