<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="town" tilewidth="64" tileheight="56" tilecount="4" columns="4">
 <image source="town.png" width="256" height="56"/>
 <tile id="0">
  <properties>
   <property name="hexwar_terrain" value="wood_building"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="hexwar_terrain" value="stone_building"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="hexwar_level" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="hexwar_road" type="bool" value="true"/>
  </properties>
 </tile>
</tileset>
